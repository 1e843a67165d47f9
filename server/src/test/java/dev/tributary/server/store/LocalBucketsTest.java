package dev.tributary.server.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.NotLeaderForBucketException;
import dev.tributary.common.exception.PartitionNotFoundException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.BucketReplicas;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.store.AppliedTable;
import dev.tributary.coordinator.store.FileMetadataStore;
import dev.tributary.coordinator.store.MetadataListener;
import dev.tributary.coordinator.store.MetadataLog;
import dev.tributary.coordinator.store.StoredState;
import dev.tributary.storage.BucketStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T49: a server's open buckets and catalog follow the applied metadata records (the real file store
 * and the real bucket store), holding only what is assigned to it.
 */
class LocalBucketsTest {
    private static final int ME = 1;
    private static final int OTHER = 2;

    private static final IntFunction<Optional<String>> ADDRESSES =
            id -> id == OTHER ? Optional.of("other:9123") : Optional.empty();

    @TempDir Path dir;
    private final ManualClock clock = new ManualClock(1_000);

    private static TableInfo table(long id, String name, boolean partitioned) {
        Schema.Builder s = Schema.newBuilder().column("id", DataTypes.BIGINT());
        TableDescriptor.Builder d;
        if (partitioned) {
            d =
                    TableDescriptor.builder(s.column("dt", DataTypes.STRING()).build())
                            .partitionKeys("dt");
        } else {
            d = TableDescriptor.builder(s.build());
        }
        return TableInfo.create(id, TablePath.of("db", name), d.bucketCount(2).build(), 1);
    }

    private BucketStore openStore() {
        return BucketStore.open(dir.resolve("store"), new Configuration(), clock);
    }

    @Test
    @DisplayName(
            "T49: tables and partitions assigned here open, others stay closed; a removed"
                    + " partition or table goes; the whole state again after a restart")
    void followsAssignments() {
        TableInfo mine = table(1, "mine", false);
        TableInfo theirs = table(2, "theirs", false);
        TableInfo unassigned = table(3, "unassigned", false);
        TableInfo byPartition = table(4, "by_partition", true);
        PartitionInfo p5 = PartitionInfo.create(4, 5, PartitionSpec.of("dt", "a"), 1);
        PartitionInfo p6 = PartitionInfo.create(4, 6, PartitionSpec.of("dt", "b"), 1);
        try (FileMetadataStore metadata = FileMetadataStore.open(dir.resolve("meta"));
                BucketStore store = openStore()) {
            TableCatalog catalog = new TableCatalog();
            metadata.putDatabase(new DatabaseInfo("db", null, 1));
            metadata.putTable(mine);
            // set while the metadata already holds a table: the reset opens what is assigned
            LocalBuckets buckets =
                    new LocalBuckets(ME, false, store, catalog, ADDRESSES, metadata, clock);
            metadata.setListener(buckets);
            assertThat(store.hasTable(1)).isFalse(); // not assigned yet, and not this server's
            metadata.putAssignment(BucketAssignment.ofServers(1, -1, List.of(OTHER, ME)));
            metadata.putTable(theirs);
            metadata.putAssignment(BucketAssignment.ofServers(2, -1, List.of(OTHER, OTHER)));
            metadata.putTable(unassigned);
            metadata.putTable(byPartition);
            metadata.putPartition(p5);
            metadata.putAssignment(BucketAssignment.ofServers(4, 5, List.of(OTHER, OTHER)));
            metadata.putPartition(p6);
            metadata.putAssignment(BucketAssignment.ofServers(4, 6, List.of(ME, OTHER)));

            assertThat(store.hasTable(1)).isTrue();
            assertThat(store.hasTable(2)).isFalse();
            assertThat(store.hasTable(3)).isFalse();
            assertThat(store.hasTable(4)).isTrue();
            assertThat(store.partitionIds(4)).containsExactly(6L);
            assertThat(catalog.all())
                    .extracting(TableInfo::tableId)
                    .containsExactlyInAnyOrder(1L, 4L);

            // requests for buckets held elsewhere are refused, naming the holder
            buckets.requireHeld(mine, -1, 1);
            assertThatThrownBy(() -> buckets.requireHeld(mine, -1, 0))
                    .isInstanceOf(NotLeaderForBucketException.class)
                    .isInstanceOf(RetriableException.class)
                    .hasMessageContaining(
                            "bucket 0 of table db.mine is held by server 2 at other:9123")
                    .hasMessageContaining("not by this server (1)");
            assertThatThrownBy(() -> buckets.table(2))
                    .isInstanceOf(NotLeaderForBucketException.class)
                    .hasMessageContaining("no bucket of table db.theirs")
                    .hasMessageContaining("server 2 at other:9123");
            assertThatThrownBy(() -> buckets.table(3))
                    .isInstanceOf(NotLeaderForBucketException.class)
                    .hasMessageContaining("no server yet");
            // an id above every one applied: created after what this server applied so far
            assertThatThrownBy(() -> buckets.table(99))
                    .isInstanceOf(RetriableException.class)
                    .hasMessageContaining("not known to this server yet");
            assertThatThrownBy(() -> buckets.leaders(99, -1, null))
                    .isInstanceOf(RetriableException.class);
            buckets.requireHeld(byPartition, 6, 0);
            assertThatThrownBy(() -> buckets.requireHeld(byPartition, 5, 1))
                    .isInstanceOf(NotLeaderForBucketException.class)
                    .hasMessageContaining("bucket 1 of partition id 5 of table db.by_partition");

            // the holders of each bucket, for clients (route35): tables held here or not
            assertThat(buckets.serverId()).isEqualTo(ME);
            assertThat(buckets.leaders(1, -1, null))
                    .isEqualTo(
                            new LocalBuckets.Leaders(
                                    -1,
                                    2,
                                    List.of(
                                            new LocalBuckets.Leader(
                                                    0,
                                                    OTHER,
                                                    Optional.of("other:9123"),
                                                    BucketReplicas.single(OTHER)),
                                            new LocalBuckets.Leader(
                                                    1,
                                                    ME,
                                                    Optional.empty(),
                                                    BucketReplicas.single(ME)))));
            assertThat(buckets.leaders(2, -1, null).leaders())
                    .extracting(LocalBuckets.Leader::serverId)
                    .containsExactly(OTHER, OTHER);
            // a bucket whose in-sync replicas are all down: clients skip it, operators see it
            BucketReplicas leaderless =
                    new BucketReplicas(
                            List.of(OTHER, 3), BucketReplicas.NO_LEADER, 3, List.of(OTHER));
            metadata.putAssignment(
                    BucketAssignment.ofServers(2, -1, List.of(OTHER, OTHER))
                            .withBucket(1, leaderless));
            assertThat(buckets.leaders(2, -1, null).leaders())
                    .extracting(LocalBuckets.Leader::bucket)
                    .containsExactly(0);
            assertThat(buckets.leaders(2, -1, null, true).leaders())
                    .extracting(LocalBuckets.Leader::bucket, LocalBuckets.Leader::serverId)
                    .containsExactly(tuple(0, OTHER), tuple(1, BucketReplicas.NO_LEADER));
            assertThat(buckets.leaders(2, -1, null, true).leaders().get(1).replicas())
                    .isEqualTo(leaderless);
            // not assigned, and this server does not take unassigned buckets: nobody serves them
            assertThat(buckets.leaders(3, -1, null).leaders()).isEmpty();
            assertThat(buckets.leaders(3, -1, null).bucketCount()).isEqualTo(2);
            // a partition by id or by name
            assertThat(buckets.leaders(4, 6, null).leaders())
                    .extracting(LocalBuckets.Leader::serverId)
                    .containsExactly(ME, OTHER);
            assertThat(buckets.leaders(4, -1, "dt=a").partitionId()).isEqualTo(5);
            assertThat(buckets.leaders(4, -1, "dt=a").leaders())
                    .extracting(LocalBuckets.Leader::serverId)
                    .containsExactly(OTHER, OTHER);
            assertThatThrownBy(() -> buckets.leaders(4, -1, "dt=zzz"))
                    .isInstanceOf(PartitionNotFoundException.class);
            assertThatThrownBy(() -> buckets.leaders(4, 99, null))
                    .isInstanceOf(PartitionNotFoundException.class);
            assertThatThrownBy(() -> buckets.leaders(4, -1, null))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("name the partition");
            assertThatThrownBy(() -> buckets.leaders(1, -1, "dt=a"))
                    .isInstanceOf(InvalidInputException.class);
            assertThatThrownBy(() -> buckets.leaders(99, -1, null))
                    .isInstanceOf(RetriableException.class);

            metadata.putPartition(p6.dropping(2_000, false));
            assertThat(store.partitionIds(4)).containsExactly(6L);
            metadata.removePartition(4, 6);
            assertThat(store.partitionIds(4)).isEmpty();
            metadata.removeTable(1);
            assertThat(store.hasTable(1)).isFalse();
            assertThat(catalog.find(1)).isEmpty();
            assertThat(dir.resolve("store").resolve("tables").resolve("1")).doesNotExist();
            // a dropped table's id is below the largest seen: gone, not still to come
            assertThatThrownBy(() -> buckets.leaders(1, -1, null))
                    .isInstanceOf(NotFoundException.class)
                    .hasMessageContaining("dropped or never created");
        }
        // a server holding unassigned buckets (it runs the coordinator) opens table 3 too
        try (FileMetadataStore metadata = FileMetadataStore.open(dir.resolve("meta"));
                BucketStore store = openStore()) {
            TableCatalog catalog = new TableCatalog();
            LocalBuckets buckets =
                    new LocalBuckets(ME, true, store, catalog, ADDRESSES, metadata, clock);
            metadata.setListener(buckets);
            // not assigned: this server takes it
            buckets.requireHeld(catalog.get(3), -1, 0);
            assertThat(buckets.leaders(3, -1, null).leaders())
                    .extracting(LocalBuckets.Leader::bucket, LocalBuckets.Leader::serverId)
                    .containsExactly(tuple(0, ME), tuple(1, ME));
            assertThat(catalog.all())
                    .extracting(TableInfo::tableId)
                    .containsExactlyInAnyOrder(3L, 4L);
            assertThat(store.hasTable(2)).isFalse();
            metadata.removeTable(4);
            assertThat(store.hasTable(4)).isFalse();
            assertThat(catalog.all()).extracting(TableInfo::tableId).containsExactly(3L);
        }
    }

    @Test
    @DisplayName(
            "a copy whose replicas moved away is deleted only later, unless they came back, and"
                    + " not before a restart's replay of the metadata log passed the log's end: a"
                    + " replay of a move away and back keeps the data, however long it takes")
    void aMovedAwayCopyOutlivesAReplayOfAMoveAwayAndBack() throws Exception {
        TableInfo moved = table(1, "moved", false);
        ReplayedLog log = new ReplayedLog();
        try (FileMetadataStore metadata = FileMetadataStore.open(dir.resolve("meta"));
                BucketStore store = openStore()) {
            TableCatalog catalog = new TableCatalog();
            metadata.putDatabase(new DatabaseInfo("db", null, 1));
            metadata.putTable(moved);
            LocalBuckets buckets =
                    new LocalBuckets(ME, false, store, catalog, ADDRESSES, log, clock);
            metadata.setListener(buckets);
            metadata.putAssignment(BucketAssignment.ofServers(1, -1, List.of(ME, OTHER)));
            Path copy = dir.resolve("store").resolve("tables").resolve("1");
            assertThat(copy).isDirectory();
            Path marker = Files.writeString(copy.resolve("held-data"), "acknowledged");

            // away and back within the grace, as a restart replays them: nothing is deleted
            metadata.putAssignment(BucketAssignment.ofServers(1, -1, List.of(OTHER, OTHER)));
            assertThat(catalog.find(1)).as("not served while away").isEmpty();
            clock.advance(Duration.ofSeconds(1));
            buckets.deleteMovedAwayCopies(Duration.ofSeconds(10));
            metadata.putAssignment(BucketAssignment.ofServers(1, -1, List.of(ME, OTHER)));
            clock.advance(Duration.ofMinutes(1));
            buckets.deleteMovedAwayCopies(Duration.ofSeconds(10));
            assertThat(marker).exists();
            assertThat(catalog.find(1)).isPresent();

            // a replay slower than the grace: the log holds changes up to 10, the replay is at 5
            // and applies a move away that the change at 9 undoes
            log.last = 10;
            log.applied = 5;
            metadata.putAssignment(BucketAssignment.ofServers(1, -1, List.of(OTHER, OTHER)));
            clock.advance(Duration.ofMinutes(1));
            buckets.deleteMovedAwayCopies(Duration.ofSeconds(10));
            assertThat(marker).as("deleted during the replay, past the grace").exists();
            log.applied = 9;
            metadata.putAssignment(BucketAssignment.ofServers(1, -1, List.of(ME, OTHER)));
            log.applied = 10;
            clock.advance(Duration.ofMinutes(1));
            buckets.deleteMovedAwayCopies(Duration.ofSeconds(10));
            assertThat(marker).exists();

            // away for good, after the replay: deleted once the grace passed
            log.last = 11;
            metadata.putAssignment(BucketAssignment.ofServers(1, -1, List.of(OTHER, OTHER)));
            log.applied = 11;
            buckets.deleteMovedAwayCopies(Duration.ofSeconds(10));
            assertThat(copy).isDirectory();
            clock.advance(Duration.ofSeconds(10));
            buckets.deleteMovedAwayCopies(Duration.ofSeconds(10));
            assertThat(copy).doesNotExist();
            assertThat(store.hasTable(1)).isFalse();
        }
    }

    @Test
    @DisplayName(
            "a bucket whose replicas moved away while this server keeps the table's other buckets"
                    + " is emptied later, unless it came back, and not during a replay")
    void aBucketThatMovedAwayIsEmptiedUnlessItCameBack() {
        TableInfo t = table(1, "spread", false);
        TableBucket b1 = new TableBucket(1, 1);
        BucketReplicas here = BucketReplicas.initial(List.of(ME, OTHER));
        BucketReplicas away = BucketReplicas.initial(List.of(OTHER, 3));
        ReplayedLog log = new ReplayedLog();
        try (FileMetadataStore metadata = FileMetadataStore.open(dir.resolve("meta"));
                BucketStore store = openStore()) {
            TableCatalog catalog = new TableCatalog();
            metadata.putDatabase(new DatabaseInfo("db", null, 1));
            metadata.putTable(t);
            LocalBuckets buckets =
                    new LocalBuckets(ME, false, store, catalog, ADDRESSES, log, clock);
            metadata.setListener(buckets);
            metadata.putAssignment(new BucketAssignment(1, -1, List.of(here, here)));
            store.append(
                            WriteBatch.builder(1, 1, t.schemaId(), t.schema())
                                    .append(Row.of(7L))
                                    .build())
                    .join();

            // away and back within the grace: kept
            metadata.putAssignment(new BucketAssignment(1, -1, List.of(here, away)));
            clock.advance(Duration.ofSeconds(1));
            buckets.deleteMovedAwayCopies(Duration.ofSeconds(10));
            metadata.putAssignment(new BucketAssignment(1, -1, List.of(here, here)));
            clock.advance(Duration.ofMinutes(1));
            buckets.deleteMovedAwayCopies(Duration.ofSeconds(10));
            assertThat(store.endOffset(b1)).isOne();

            // away during a replay that has not reached the log's end: kept past the grace
            log.last = 10;
            log.applied = 5;
            metadata.putAssignment(new BucketAssignment(1, -1, List.of(here, away)));
            clock.advance(Duration.ofMinutes(1));
            buckets.deleteMovedAwayCopies(Duration.ofSeconds(10));
            assertThat(store.endOffset(b1)).isOne();

            // the replay ended with the bucket still away: emptied; the table stays here
            log.applied = 10;
            buckets.deleteMovedAwayCopies(Duration.ofSeconds(10));
            assertThat(store.endOffset(b1)).isZero();
            assertThat(store.hasTable(1)).isTrue();
            assertThat(catalog.find(1)).isPresent();
            buckets.requireHeld(t, -1, 0);

            // a partition's bucket likewise, the partition staying here
            TableInfo byDay = table(2, "by_day", true);
            metadata.putTable(byDay);
            metadata.putPartition(PartitionInfo.create(2, 5, PartitionSpec.of("dt", "a"), 1));
            metadata.putAssignment(new BucketAssignment(2, 5, List.of(here, here)));
            TableBucket p1 = new TableBucket(2, 5, 1);
            store.append(
                            5,
                            WriteBatch.builder(2, 1, byDay.schemaId(), byDay.schema())
                                    .append(Row.of(7L, "a"))
                                    .build())
                    .join();
            assertThat(store.replicaLog(p1).writtenEndOffset()).isOne();
            metadata.putAssignment(new BucketAssignment(2, 5, List.of(here, away)));
            log.last = 11;
            log.applied = 11;
            clock.advance(Duration.ofSeconds(10));
            buckets.deleteMovedAwayCopies(Duration.ofSeconds(10));
            assertThat(store.replicaLog(p1).writtenEndOffset()).isZero();
            assertThat(store.partitionIds(2)).containsExactly(5L);
        }
    }

    @Test
    @DisplayName(
            "copies dropped or moved away while this server was away are deleted once its"
                    + " metadata caught up, a copy written as the only one is kept")
    void copiesDroppedOrMovedAwayWhileAwayAreDeletedOnceCaughtUp() {
        BucketReplicas here = BucketReplicas.initial(List.of(ME, OTHER));
        BucketReplicas away = BucketReplicas.initial(List.of(OTHER, 3));
        TableInfo dropped = table(1, "dropped", false);
        TableInfo moved = table(2, "moved", false);
        TableInfo spread = table(3, "spread", false);
        TableInfo byDay = table(4, "by_day", true);
        TableInfo single = table(5, "single", false);
        Path tables = dir.resolve("store").resolve("tables");
        try (FileMetadataStore metadata = FileMetadataStore.open(dir.resolve("meta"))) {
            metadata.putDatabase(new DatabaseInfo("db", null, 1));
            try (BucketStore store = openStore()) {
                LocalBuckets before =
                        new LocalBuckets(
                                ME, false, store, new TableCatalog(), ADDRESSES, metadata, clock);
                metadata.setListener(before);
                for (TableInfo t : List.of(dropped, moved, spread, single)) {
                    metadata.putTable(t);
                    metadata.putAssignment(
                            new BucketAssignment(t.tableId(), -1, List.of(here, here)));
                    for (int b = 0; b < 2; b++) {
                        appendOne(store, t, -1, b);
                    }
                }
                metadata.putTable(byDay);
                for (long p : List.of(5L, 6L)) {
                    metadata.putPartition(
                            PartitionInfo.create(4, p, PartitionSpec.of("dt", "d" + p), 1));
                    metadata.putAssignment(new BucketAssignment(4, p, List.of(here, here)));
                    appendOne(store, byDay, p, 0);
                }
                // what the replica manager writes for replicated buckets: not for the single copy
                for (TableInfo t : List.of(dropped, moved, spread)) {
                    for (int b = 0; b < 2; b++) {
                        checkpoint(store, new TableBucket(t.tableId(), b));
                    }
                }
                checkpoint(store, new TableBucket(4, 6, 0));
            }
            // while this server is away: a drop, moves away, a partition dropped
            metadata.setListener(
                    new MetadataListener() {
                        @Override
                        public void onReset(StoredState state) {}

                        @Override
                        public void onTableChanged(long tableId, Optional<AppliedTable> table) {}
                    });
            metadata.removeTable(1);
            metadata.putAssignment(new BucketAssignment(2, -1, List.of(away, away)));
            metadata.putAssignment(new BucketAssignment(3, -1, List.of(here, away)));
            metadata.putAssignment(new BucketAssignment(5, -1, List.of(away, away)));
            metadata.removePartition(4, 6);

            // back, learning the end state at once (as from a metadata snapshot)
            ReplayedLog log = new ReplayedLog();
            log.last = 10;
            log.applied = 5;
            try (BucketStore store = openStore()) {
                LocalBuckets after =
                        new LocalBuckets(
                                ME, false, store, new TableCatalog(), ADDRESSES, log, clock);
                metadata.setListener(after);
                after.deleteMovedAwayCopies(Duration.ofSeconds(10));
                assertThat(tables.resolve("1")).as("nothing before the catch-up").isDirectory();
                assertThat(tables.resolve("4").resolve("p6")).isDirectory();

                log.applied = 10;
                after.deleteMovedAwayCopies(Duration.ofSeconds(10));
                assertThat(tables.resolve("1")).doesNotExist();
                assertThat(tables.resolve("4").resolve("p6")).doesNotExist();
                assertThat(tables.resolve("2")).as("moved away: after the grace").isDirectory();
                assertThat(store.endOffset(new TableBucket(3, 1))).isOne();

                clock.advance(Duration.ofSeconds(10));
                after.deleteMovedAwayCopies(Duration.ofSeconds(10));
                assertThat(tables.resolve("2")).doesNotExist();
                assertThat(store.endOffset(new TableBucket(3, 1))).isZero();
                assertThat(store.endOffset(new TableBucket(3, 0))).isOne();
                assertThat(store.endOffset(new TableBucket(4, 5, 0))).isOne();
                assertThat(tables.resolve("5")).as("never replicated here: kept").isDirectory();
            }
        }
    }

    private static void appendOne(BucketStore store, TableInfo t, long partitionId, int bucket) {
        Row row = t.descriptor().isPartitioned() ? Row.of(7L, "d" + partitionId) : Row.of(7L);
        WriteBatch batch =
                WriteBatch.builder(t.tableId(), bucket, t.schemaId(), t.schema())
                        .append(row)
                        .build();
        (partitionId == -1 ? store.append(batch) : store.append(partitionId, batch)).join();
    }

    private static void checkpoint(BucketStore store, TableBucket bucket) {
        store.replicaLog(bucket).highWatermarkCheckpoint().write(1);
    }

    /** The positions a replicated metadata store reports while it replays its log. */
    private static final class ReplayedLog implements MetadataLog {
        long last;
        long applied;

        @Override
        public long lastLogIndex() {
            return last;
        }

        @Override
        public long appliedIndex() {
            return applied;
        }
    }
}
