package dev.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.cli.demo.DemoTables;
import dev.tributary.common.id.TablePath;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tributary demo --fast --lake-format iceberg}: the in-process server tiers the three shop
 * tables into an Iceberg Hadoop catalog under the data directory, read back with Iceberg's own
 * generic reader (deletes applied).
 */
class DemoIcebergITCase {
    private static final Pattern ROUND_LINE =
            Pattern.compile(
                    "^\\d\\d:\\d\\d:\\d\\d\\s+(shop\\.\\w+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s",
                    Pattern.MULTILINE);

    @TempDir Path dataDir;

    @Test
    @DisplayName(
            "T6 T8 T28 T29 demo --lake-format iceberg commits rounds for all three tables, readable"
                    + " with IcebergGenerics; a paimon rerun on that data dir is refused")
    void demoTiersIntoIcebergAndTheLakeHoldsRows() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code =
                TributaryCli.execute(
                        new String[] {
                            "demo",
                            "--fast",
                            "--lake-format",
                            "iceberg",
                            "--duration",
                            "45s",
                            "--rate",
                            "400",
                            "--parallelism",
                            "2",
                            "--seed",
                            "11",
                            "--data-dir",
                            dataDir.toString()
                        },
                        new PrintWriter(out, true),
                        new PrintWriter(err, true));
        String text = out.toString();
        assertThat(code).as("stdout:%n%s%nstderr:%n%s", text, err).isZero();
        assertThat(text).contains("(iceberg, embedded tiering)");

        Map<String, Long> tieredRows = new HashMap<>();
        Matcher m = ROUND_LINE.matcher(text);
        while (m.find()) {
            tieredRows.merge(m.group(1), Long.parseLong(m.group(4)), Long::sum);
        }
        assertThat(tieredRows)
                .as("committed rounds in the live view:%n%s", text)
                .containsKeys("shop.clicks", "shop.orders", "shop.customers");
        assertThat(text).doesNotContain("demo: ").contains("0 failed");

        Path lake = dataDir.resolve("lake");
        for (TablePath t : List.of(DemoTables.CLICKS, DemoTables.ORDERS)) {
            long lakeRows = readIceberg(lake, t, "__offset").size();
            // log tables: every tiered row is one lake row
            assertThat(lakeRows)
                    .as("rows of %s in the Iceberg table", t)
                    .isPositive()
                    .isGreaterThanOrEqualTo(tieredRows.get(t.toString()));
        }
        List<Object> customerIds = readIceberg(lake, DemoTables.CUSTOMERS, "id");
        assertThat(customerIds).as("rows of shop.customers in the Iceberg table").isNotEmpty();
        // upserts and deletes applied: one lake row per live key
        assertThat(customerIds).doesNotHaveDuplicates();
        assertThat(lake.resolve("shop.db")).as("no Paimon database was created").doesNotExist();

        // the data directory's tables stay Iceberg tables: the paimon demo refuses them
        StringWriter out2 = new StringWriter();
        StringWriter err2 = new StringWriter();
        int again =
                TributaryCli.execute(
                        new String[] {
                            "demo",
                            "--fast",
                            "--duration",
                            "1s",
                            "--parallelism",
                            "1",
                            "--data-dir",
                            dataDir.toString()
                        },
                        new PrintWriter(out2, true),
                        new PrintWriter(err2, true));
        assertThat(again).as("stdout:%n%s%nstderr:%n%s", out2, err2).isEqualTo(1);
        assertThat(err2.toString())
                .contains("already exists and is tiered into iceberg")
                .contains("--lake-format iceberg");
        assertThat(lake.resolve("shop.db"))
                .as("the paimon server created no Paimon copy of the Iceberg tables")
                .satisfies(p -> assertThat(Files.exists(p.resolve("clicks"))).isFalse());
    }

    private static List<Object> readIceberg(Path warehouse, TablePath path, String column)
            throws Exception {
        try (HadoopCatalog catalog =
                new HadoopCatalog(
                        new org.apache.hadoop.conf.Configuration(), warehouse.toUri().toString())) {
            Table table = catalog.loadTable(TableIdentifier.of(path.database(), path.table()));
            List<Object> values = new ArrayList<>();
            try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
                for (Record r : records) {
                    values.add(r.getField(column));
                }
            }
            return values;
        }
    }
}
