package dev.tributary.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidInputException;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class TieringJobCommandTest {

    @Test
    void cliOptionsBecomeTheJobMainsKeyValueLine() {
        TieringJobCommand c = new TieringJobCommand();
        new CommandLine(c)
                .parseArgs(
                        "--coordinator",
                        "h:9123",
                        "--token",
                        "s3cret",
                        "--set",
                        "datalake.paimon.warehouse=/w",
                        "--set",
                        "tiering.job.group=analytics");
        assertThat(c.arguments())
                .containsExactly(
                        "--coordinator",
                        "h:9123",
                        "--token",
                        "s3cret",
                        "--datalake.paimon.warehouse",
                        "/w",
                        "--tiering.job.group",
                        "analytics");
    }

    @Test
    void aSettingWithoutEqualsIsATypedError() {
        TieringJobCommand c = new TieringJobCommand();
        new CommandLine(c).parseArgs("--coordinator", "h:1", "--set", "oops");
        assertThatThrownBy(c::arguments)
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("KEY=VALUE");
    }

    @Test
    void missingCoordinatorIsAUsageError() {
        assertThat(
                        dev.tributary.cli.TributaryCli.execute(
                                new String[] {"tiering-job"},
                                new java.io.PrintWriter(new java.io.StringWriter()),
                                new java.io.PrintWriter(new java.io.StringWriter())))
                .isEqualTo(2);
    }
}
