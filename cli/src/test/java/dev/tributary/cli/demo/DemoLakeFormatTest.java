package dev.tributary.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.cli.TributaryCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DemoLakeFormatTest {

    @Test
    void defaultIsPaimonAndIcebergIsAccepted() {
        DemoCommand byDefault = new DemoCommand();
        new CommandLine(byDefault).parseArgs();
        assertThat(byDefault.lakeFormat).isEqualTo(DemoLakeFormat.PAIMON);

        DemoCommand iceberg = new DemoCommand();
        new CommandLine(iceberg).parseArgs("--lake-format", "iceberg");
        assertThat(iceberg.lakeFormat).isEqualTo(DemoLakeFormat.ICEBERG);
        assertThat(iceberg.lakeFormat.identifier()).isEqualTo("iceberg");
    }

    @Test
    void theTablesAskForTheChosenFormat() {
        for (DemoTables.Spec t : DemoTables.specs(true)) {
            assertThat(t.descriptor(DemoLakeFormat.ICEBERG).properties())
                    .containsEntry("table.datalake.format", "iceberg")
                    .containsEntry("table.datalake.enabled", "true");
            assertThat(t.descriptor(DemoLakeFormat.PAIMON).properties())
                    .containsEntry("table.datalake.format", "paimon");
        }
    }

    @Test
    void anUnknownFormatIsAUsageErrorWithoutStackTrace() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code =
                TributaryCli.execute(
                        new String[] {"demo", "--lake-format", "delta"},
                        new PrintWriter(out, true),
                        new PrintWriter(err, true));
        assertThat(code).isEqualTo(TributaryCli.USAGE_ERROR);
        assertThat(err.toString())
                .contains("--lake-format")
                .contains("'delta' is not a lake format; use one of paimon, iceberg")
                .contains("demo --help")
                .doesNotContain("\tat ")
                .doesNotContain("Exception");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void helpListsTheFormats() {
        StringWriter out = new StringWriter();
        int code =
                TributaryCli.execute(
                        new String[] {"demo", "--help"},
                        new PrintWriter(out, true),
                        new PrintWriter(new StringWriter(), true));
        assertThat(code).isZero();
        // picocli wraps lines; compare with runs of white space folded
        assertThat(out.toString().replaceAll("\\s+", " "))
                .contains("--lake-format=FORMAT")
                .contains("paimon, iceberg (default: paimon)");
    }
}
