package dev.tributary.server.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.storage.BucketStore;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How status describes a PK table's row deletes from the store's lake row index (T48). */
class PkDeletesViewTest {
    private static final Schema PK =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("name", DataTypes.STRING())
                    .primaryKey("id")
                    .build();
    private static final List<TableBucket> BUCKETS =
            List.of(
                    new TableBucket(9, 0),
                    new TableBucket(9, 1),
                    new TableBucket(9, 2),
                    new TableBucket(9, 3));

    @TempDir Path dir;

    private static TableDescriptor table(String... properties) {
        TableDescriptor.Builder b = TableDescriptor.builder(PK).bucketCount(4);
        for (int i = 0; i < properties.length; i += 2) {
            b.property(properties[i], properties[i + 1]);
        }
        return b.build();
    }

    private static void index(BucketStore store, TableBucket b, long snapshot) {
        try (var u = store.lakeRowIndex().beginUpdate(b, true)) {
            u.commit(snapshot, List.of());
        }
    }

    @Test
    void t48_icebergPositionTablesCountTheBucketsTheIndexDescribesWithoutOpeningIt() {
        try (BucketStore store = BucketStore.open(dir, new Configuration(), new ManualClock(0))) {
            assertThat(PkDeletesView.of(table(), "iceberg", BUCKETS, store))
                    .as("never opened: not read, and not created")
                    .isEqualTo(
                            new PkDeletesView(
                                    "position", PkDeletesView.STORE_INDEX, 4, 0, null, 0, false));
            assertThat(dir.resolve("lake-row-index")).doesNotExist();

            index(store, BUCKETS.get(0), 12);
            index(store, BUCKETS.get(1), 12);
            index(store, BUCKETS.get(2), -77); // an older snapshot: Iceberg ids are not ordered
            // bucket 3 is being rebuilt: dirty, reads as not described
            store.lakeRowIndex().beginUpdate(BUCKETS.get(3), true).close();
            assertThat(PkDeletesView.of(table(), "iceberg", BUCKETS, store))
                    .isEqualTo(
                            new PkDeletesView(
                                    "position", PkDeletesView.STORE_INDEX, 4, 3, 12L, 2, true));
            // the table's own format wins over the server's
            assertThat(
                            PkDeletesView.of(
                                    table("table.datalake.format", "iceberg"),
                                    "paimon",
                                    BUCKETS,
                                    store))
                    .extracting(PkDeletesView::indexedBuckets)
                    .isEqualTo(3);
        }
    }

    @Test
    void t48_paimonKeepsItsOwnAndEqualityTablesSaySoAndLogTablesHaveNone() {
        try (BucketStore store = BucketStore.open(dir, new Configuration(), new ManualClock(0))) {
            assertThat(PkDeletesView.of(table(), "paimon", BUCKETS, store))
                    .isEqualTo(
                            new PkDeletesView(
                                    "position", PkDeletesView.PAIMON, 4, 0, null, 0, false));
            assertThat(
                            PkDeletesView.of(
                                    table("table.datalake.pk-deletes", "equality"),
                                    "iceberg",
                                    BUCKETS,
                                    store))
                    .isEqualTo(new PkDeletesView("equality", null, 4, 0, null, 0, false));
            Schema log = Schema.newBuilder().column("id", DataTypes.BIGINT()).build();
            assertThat(
                            PkDeletesView.of(
                                    TableDescriptor.builder(log).bucketCount(4).build(),
                                    "iceberg",
                                    BUCKETS,
                                    store))
                    .isNull();
        }
    }
}
