package dev.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.cli.demo.DemoTables;
import dev.tributary.common.id.TablePath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

    @TempDir Path dataDir;

    @Test
    @DisplayName(
            "T6 T8 T28 T29 demo --lake-format iceberg commits rounds for all three tables, readable"
                    + " with IcebergGenerics; a paimon rerun on that data dir is refused")
    void demoTiersIntoIcebergAndTheLakeHoldsRows() throws Exception {
        DemoRun run =
                DemoRun.of(
                                "demo",
                                "--fast",
                                "--lake-format",
                                "iceberg",
                                // 20 s of writes, under the slowest table's
                                // freshness (30 s): its first round holds every
                                // row, so the demo's wait for each table's last
                                // round ends a freshness sooner than after 45 s
                                "--duration",
                                "20s",
                                "--rate",
                                "400",
                                "--parallelism",
                                "2",
                                "--seed",
                                "11",
                                "--data-dir",
                                dataDir.toString())
                        .assertRoundsOfAllTables()
                        .assertClosingLinesAfterTheLastRounds();
        assertThat(run.out()).contains("lake: iceberg lake, catalog filesystem, warehouse file:");
        Map<String, Long> tieredRows = run.tieredRows();

        Path lake = dataDir.resolve("lake");
        for (TablePath t : List.of(DemoTables.CLICKS, DemoTables.ORDERS)) {
            long lakeRows = readIceberg(lake, t, "__offset").size();
            // log tables: every tiered row is one lake row
            assertThat(lakeRows)
                    .as("rows of %s in the Iceberg table", t)
                    .isPositive()
                    .isEqualTo(tieredRows.get(t.toString()));
        }
        List<Object> customerIds = readIceberg(lake, DemoTables.CUSTOMERS, "id");
        assertThat(customerIds).as("rows of shop.customers in the Iceberg table").isNotEmpty();
        // upserts and deletes applied: one lake row per live key
        assertThat(customerIds).doesNotHaveDuplicates();
        assertThat(lake.resolve("shop.db")).as("no Paimon database was created").doesNotExist();

        // the data directory's tables stay Iceberg tables: the paimon demo refuses them
        DemoRun again =
                DemoRun.of(
                        "demo",
                        "--fast",
                        "--duration",
                        "1s",
                        "--parallelism",
                        "1",
                        "--data-dir",
                        dataDir.toString());
        assertThat(again.exitCode())
                .as("stdout:%n%s%nstderr:%n%s", again.out(), again.err())
                .isEqualTo(1);
        assertThat(again.err())
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
