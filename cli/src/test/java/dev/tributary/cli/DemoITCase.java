package dev.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.cli.demo.DemoTables;
import dev.tributary.common.id.TablePath;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tributary demo --fast} through the CLI's main entry: an in-process server with the
 * embedded tiering job (found through the ServerExtension service file), real Flink MiniCluster,
 * real Paimon warehouse under the data directory.
 */
class DemoITCase {
    private static final Pattern ROUND_LINE =
            Pattern.compile(
                    "^\\d\\d:\\d\\d:\\d\\d\\s+(shop\\.\\w+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s",
                    Pattern.MULTILINE);

    @TempDir Path dataDir;

    @Test
    @DisplayName("T6 T28 demo --fast commits rounds for all three tables, readable with Paimon")
    void demoShowsCommittedRoundsAndTheLakeHoldsRows() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code =
                TributaryCli.execute(
                        new String[] {
                            "demo",
                            "--fast",
                            "--duration",
                            "50s",
                            "--rate",
                            "400",
                            "--parallelism",
                            "2",
                            "--seed",
                            "7",
                            "--data-dir",
                            dataDir.toString()
                        },
                        new PrintWriter(out, true),
                        new PrintWriter(err, true));
        String text = out.toString();
        assertThat(code).as("stdout:%n%s%nstderr:%n%s", text, err).isZero();

        Map<String, Long> tieredRows = new HashMap<>();
        Matcher m = ROUND_LINE.matcher(text);
        while (m.find()) {
            tieredRows.merge(m.group(1), Long.parseLong(m.group(4)), Long::sum);
        }
        assertThat(tieredRows)
                .as("committed rounds in the live view:%n%s", text)
                .containsKeys("shop.clicks", "shop.orders", "shop.customers");
        assertThat(text).doesNotContain("demo: ").contains("0 failed");

        for (TablePath t : List.of(DemoTables.CLICKS, DemoTables.ORDERS, DemoTables.CUSTOMERS)) {
            long lakeRows = countPaimonRows(dataDir.resolve("lake"), t);
            assertThat(lakeRows).as("rows of %s in the Paimon table", t).isPositive();
            if (!t.equals(DemoTables.CUSTOMERS)) {
                // log tables: every tiered row is one lake row
                assertThat(lakeRows).isGreaterThanOrEqualTo(tieredRows.get(t.toString()));
            }
        }
    }

    private static long countPaimonRows(Path warehouse, TablePath path) throws Exception {
        Options options =
                Options.fromMap(
                        Map.of(
                                "warehouse",
                                warehouse.toUri().toString(),
                                "cache-enabled",
                                "false"));
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options))) {
            Table table = catalog.getTable(Identifier.create(path.database(), path.table()));
            ReadBuilder rb = table.newReadBuilder();
            long[] n = {0};
            try (RecordReader<InternalRow> reader =
                    rb.newRead().createReader(rb.newScan().plan().splits())) {
                reader.forEachRemaining(r -> n[0]++);
            }
            return n[0];
        }
    }
}
