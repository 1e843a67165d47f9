package dev.tributary.storage;

import static dev.tributary.storage.StoreTestSupport.PK_SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.record.WriteBatchBuilder;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.storage.kv.KvSnapshotInfo;
import dev.tributary.storage.kv.SnapshotLease;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KvSnapshotTest {
    private static final long TABLE = 3;
    private static final TableBucket BUCKET = new TableBucket(TABLE, 0);

    @TempDir Path dir;
    private final ManualClock clock = new ManualClock(10_000_000);
    private Configuration conf;
    private TableDescriptor descriptor;
    private BucketStore store;

    @BeforeEach
    void open() {
        conf =
                new Configuration()
                        .setString("kv.snapshot.interval", "1min")
                        .setString("kv.snapshot.lease-timeout", "30s")
                        .setString("log.segment.size", "2kb");
        descriptor =
                TableDescriptor.builder(PK_SCHEMA)
                        .bucketCount(1)
                        .property("kv.snapshot.num-retained", "1")
                        .property("table.log.ttl", "1h")
                        .build();
        store = BucketStore.open(dir, conf, clock);
        store.createTable(TABLE, descriptor, 0, PK_SCHEMA);
    }

    @AfterEach
    void close() {
        store.close();
    }

    private void upsert(int from, int to, String value) {
        upsert(TABLE, from, to, value);
    }

    private void upsert(long table, int from, int to, String value) {
        WriteBatchBuilder b = WriteBatch.builder(table, 0, 0, PK_SCHEMA);
        for (int k = from; k < to; k++) {
            b.upsert(Row.of(k, value + k, (long) k));
        }
        store.append(b.build()).join();
    }

    private List<Row> rows(long snapshotId) {
        List<Row> out = new ArrayList<>();
        try (CloseableIterator<Row> it = store.readSnapshot(BUCKET, snapshotId)) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    @Test
    void T9_aLeasedSnapshotSurvivesRetentionUntilReleased() {
        upsert(0, 10, "a");
        KvSnapshotInfo first = store.snapshot(BUCKET);
        SnapshotLease lease = store.leaseSnapshot(BUCKET, first.snapshotId());
        upsert(0, 10, "b");
        KvSnapshotInfo second = store.snapshot(BUCKET); // retains 1, but the first is leased
        assertThat(store.listSnapshots(BUCKET)).containsExactly(first, second);
        assertThat(store.runRetention().snapshotsDeleted()).isZero();
        clock.advance(Duration.ofSeconds(20));
        store.renewLease(BUCKET, lease.leaseId());
        clock.advance(Duration.ofSeconds(20)); // 40 s after the lease, 20 s after the renewal
        assertThat(store.runRetention().snapshotsDeleted()).isZero();
        assertThat(rows(first.snapshotId()))
                .hasSize(10)
                .allMatch(r -> r.getString(1).startsWith("a"));

        store.releaseLease(BUCKET, lease.leaseId());
        assertThat(store.runRetention().snapshotsDeleted()).isEqualTo(1);
        assertThat(store.listSnapshots(BUCKET)).containsExactly(second);
        assertThatThrownBy(() -> store.readSnapshot(BUCKET, first.snapshotId()))
                .isInstanceOf(NotFoundException.class);
    }

    @Test
    void T9_anExpiredLeaseDoesNotHoldBackRetention() {
        upsert(0, 5, "a");
        KvSnapshotInfo first = store.snapshot(BUCKET);
        SnapshotLease lease = store.leaseSnapshot(BUCKET, first.snapshotId());
        upsert(0, 5, "b");
        store.snapshot(BUCKET);
        clock.advance(Duration.ofSeconds(31));
        assertThat(store.runRetention().snapshotsDeleted()).isEqualTo(1);
        assertThat(store.listSnapshots(BUCKET))
                .extracting(KvSnapshotInfo::snapshotId)
                .containsExactly(2L);
        assertThatThrownBy(() -> store.renewLease(BUCKET, lease.leaseId()))
                .isInstanceOf(NotFoundException.class)
                .hasMessageContaining("expired");
        assertThatThrownBy(() -> store.leaseSnapshot(BUCKET, first.snapshotId()))
                .isInstanceOf(NotFoundException.class);
    }

    @Test
    void T9_aLeaseSurvivesARestartAndLapsesOneTimeoutAfterIt() {
        upsert(0, 10, "a");
        KvSnapshotInfo first = store.snapshot(BUCKET);
        SnapshotLease lease = store.leaseSnapshot(BUCKET, first.snapshotId());
        SnapshotLease other = store.leaseSnapshot(BUCKET, first.snapshotId());
        store.releaseLease(BUCKET, other.leaseId());
        upsert(0, 10, "b");
        KvSnapshotInfo second = store.snapshot(BUCKET);
        store.close();
        clock.advance(Duration.ofMinutes(5)); // longer than the timeout: the server was down

        store = BucketStore.open(dir, conf, clock);
        store.openTable(TABLE, descriptor, 0, PK_SCHEMA);
        assertThat(store.runRetention().snapshotsDeleted()).isZero();
        assertThat(store.listSnapshots(BUCKET)).containsExactly(first, second);
        // the reader renews after the restart and goes on reading
        clock.advance(Duration.ofSeconds(20));
        store.renewLease(BUCKET, lease.leaseId());
        assertThat(rows(first.snapshotId())).hasSize(10);
        assertThatThrownBy(() -> store.renewLease(BUCKET, other.leaseId()))
                .as("a released lease stays released")
                .isInstanceOf(NotFoundException.class);
        // lease ids are not reused after a restart
        assertThat(store.leaseSnapshot(BUCKET, second.snapshotId()).leaseId())
                .isGreaterThan(other.leaseId());

        store.close();
        store = BucketStore.open(dir, conf, clock);
        store.openTable(TABLE, descriptor, 0, PK_SCHEMA);
        // a reader that never came back: one timeout after this restart the snapshot can go
        clock.advance(Duration.ofSeconds(29));
        assertThat(store.runRetention().snapshotsDeleted()).isZero();
        clock.advance(Duration.ofSeconds(2));
        assertThat(store.runRetention().snapshotsDeleted()).isEqualTo(1);
        assertThat(store.listSnapshots(BUCKET)).containsExactly(second);
    }

    @Test
    void snapshotsAreTakenOnTheIntervalOnlyWhenTheBucketChanged() {
        upsert(0, 3, "a");
        assertThat(store.maybeSnapshot()).isEmpty();
        clock.advance(Duration.ofSeconds(59));
        assertThat(store.maybeSnapshot()).isEmpty();
        clock.advance(Duration.ofSeconds(1));
        List<KvSnapshotInfo> taken = store.maybeSnapshot();
        assertThat(taken).hasSize(1);
        assertThat(taken.get(0).logOffset()).isEqualTo(3);
        assertThat(taken.get(0).createdAtMillis()).isEqualTo(clock.currentTimeMillis());
        clock.advance(Duration.ofMinutes(5));
        assertThat(store.maybeSnapshot()).isEmpty(); // nothing changed
        upsert(0, 1, "b");
        assertThat(store.maybeSnapshot()).extracting(KvSnapshotInfo::logOffset).containsExactly(5L);
        // on demand with no change returns the newest one instead of a copy
        assertThat(store.snapshot(BUCKET).snapshotId()).isEqualTo(2);
    }

    @Test
    void reopenRestoresFromTheSnapshotWhenTheLogBelowItWasDeleted() {
        for (int i = 0; i < 20; i++) {
            upsert(0, 20, "v" + i + "-");
        }
        KvSnapshotInfo snap = store.snapshot(BUCKET);
        upsert(20, 25, "late");
        clock.advance(Duration.ofHours(2));
        RetentionResult r = store.runRetention();
        assertThat(r.segmentsDeleted()).isPositive();
        long start = store.startOffset(BUCKET);
        assertThat(start).isPositive().isLessThanOrEqualTo(snap.logOffset());
        store.close();

        store = BucketStore.open(dir, conf, clock);
        store.openTable(TABLE, descriptor, 0, PK_SCHEMA);
        assertThat(store.startOffset(BUCKET)).isEqualTo(start);
        for (int k = 0; k < 20; k++) {
            assertThat(store.lookup(BUCKET, Row.of(k))).contains(Row.of(k, "v19-" + k, (long) k));
        }
        for (int k = 20; k < 25; k++) {
            assertThat(store.lookup(BUCKET, Row.of(k))).contains(Row.of(k, "late" + k, (long) k));
        }
        assertThat(store.latestSnapshot(BUCKET)).contains(snap);
    }

    @Test
    void withoutASnapshotTheChangelogIsNeverDeleted() {
        for (int i = 0; i < 20; i++) {
            upsert(0, 20, "v" + i);
        }
        clock.advance(Duration.ofHours(2));
        assertThat(store.runRetention().segmentsDeleted()).isZero();
        assertThat(store.startOffset(BUCKET)).isZero();
    }

    @Test
    void snapshotRowsReadUnderANewerSchemaWithNullInAddedColumns() {
        upsert(0, 2, "a");
        KvSnapshotInfo snap = store.snapshot(BUCKET);
        Schema v1 = PK_SCHEMA.addColumn(new Column("extra", DataTypes.STRING()));
        store.updateSchema(TABLE, 1, v1);
        assertThat(rows(snap.snapshotId()))
                .containsExactly(Row.of(0, "a0", 0L, null), Row.of(1, "a1", 1L, null));
        store.append(WriteBatch.builder(TABLE, 0, 1, v1).upsert(Row.of(1, "b", 2L, "x")).build())
                .join();
        assertThat(store.lookup(BUCKET, Row.of(0))).contains(Row.of(0, "a0", 0L, null));
        assertThat(store.lookup(BUCKET, Row.of(1))).contains(Row.of(1, "b", 2L, "x"));
    }

    @Test
    void anInterruptedSnapshotIsDiscardedOnOpen() throws Exception {
        upsert(0, 4, "a");
        KvSnapshotInfo snap = store.snapshot(BUCKET);
        store.close();
        Path snapshots = dir.resolve("tables/3/0/kv/snapshots");
        Path half = Files.createDirectories(snapshots.resolve("snap-" + (snap.snapshotId() + 1)));
        Files.writeString(half.resolve("000001.sst"), "partial");
        store = BucketStore.open(dir, conf, clock);
        store.openTable(TABLE, descriptor, 0, PK_SCHEMA);
        assertThat(store.listSnapshots(BUCKET)).containsExactly(snap);
        assertThat(half).doesNotExist();
        assertThat(store.lookup(BUCKET, Row.of(3))).contains(Row.of(3, "a3", 3L));
    }

    // a table that keeps two snapshots, for the fallback from a damaged newest one
    private static final long TWO = 4;
    private static final TableBucket TWO_BUCKET = new TableBucket(TWO, 0);
    private final TableDescriptor twoKept =
            TableDescriptor.builder(PK_SCHEMA)
                    .bucketCount(1)
                    .property("kv.snapshot.num-retained", "2")
                    .property("table.log.ttl", "1h")
                    .build();

    /** Two snapshots kept with sealed log segments between them, then a third state. */
    private List<KvSnapshotInfo> twoSnapshots() {
        store.createTable(TWO, twoKept, 0, PK_SCHEMA);
        upsert(TWO, 0, 10, "a");
        KvSnapshotInfo first = store.snapshot(TWO_BUCKET);
        for (int i = 0; i < 20; i++) { // enough to seal log segments between the snapshots
            upsert(TWO, 5, 15, "b");
        }
        KvSnapshotInfo second = store.snapshot(TWO_BUCKET);
        upsert(TWO, 10, 20, "c");
        return List.of(first, second);
    }

    private void reopenAndExpectTheFullState() {
        store.close();
        store = BucketStore.open(dir, conf, clock);
        store.openTable(TWO, twoKept, 0, PK_SCHEMA);
        for (int k = 0; k < 20; k++) {
            String v = k < 5 ? "a" : k < 10 ? "b" : "c";
            assertThat(store.lookup(TWO_BUCKET, Row.of(k))).contains(Row.of(k, v + k, (long) k));
        }
    }

    private Path snapshotDir(long table, long id) {
        return dir.resolve("tables/" + table + "/0/kv/snapshots/snap-" + id);
    }

    private static Path anSst(Path snapshot) throws Exception {
        try (var files = Files.list(snapshot)) {
            return files.filter(f -> f.toString().endsWith(".sst")).findFirst().orElseThrow();
        }
    }

    @Test
    void aNewestSnapshotMissingAFileIsMovedAsideAndTheOlderOneUsed() throws Exception {
        List<KvSnapshotInfo> snaps = twoSnapshots();
        Files.delete(anSst(snapshotDir(TWO, snaps.get(1).snapshotId())));

        reopenAndExpectTheFullState();
        assertThat(store.listSnapshots(TWO_BUCKET)).containsExactly(snaps.get(0));
        assertThat(snapshotDir(TWO, snaps.get(1).snapshotId())).doesNotExist();
        assertThat(dir.resolve("tables/" + TWO + "/0/kv/snapshots/damaged-snap-2")).isDirectory();
    }

    @Test
    void aTruncatedTableFileOrGarbledMetadataCountsAsDamaged() throws Exception {
        List<KvSnapshotInfo> snaps = twoSnapshots();
        Path sst = anSst(snapshotDir(TWO, snaps.get(1).snapshotId()));
        byte[] bytes = Files.readAllBytes(sst);
        Files.write(sst, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        Files.writeString(
                snapshotDir(TWO, snaps.get(0).snapshotId()).resolve("TRIBUTARY-SNAPSHOT"),
                "snapshotId=\\u12");

        // both damaged: the log still starts at 0, so the whole state is replayed from it
        reopenAndExpectTheFullState();
        assertThat(store.listSnapshots(TWO_BUCKET)).isEmpty();
        // the next snapshot works as usual
        assertThat(store.snapshot(TWO_BUCKET).logOffset()).isEqualTo(store.endOffset(TWO_BUCKET));
    }

    @Test
    void retentionKeepsTheLogFromTheOldestKeptSnapshotSoTheFallbackCanReplay() throws Exception {
        List<KvSnapshotInfo> snaps = twoSnapshots();
        clock.advance(Duration.ofHours(2));
        store.runRetention();
        assertThat(store.startOffset(TWO_BUCKET)).isLessThanOrEqualTo(snaps.get(0).logOffset());
        Files.delete(anSst(snapshotDir(TWO, snaps.get(1).snapshotId())));

        reopenAndExpectTheFullState();
        assertThat(store.listSnapshots(TWO_BUCKET)).containsExactly(snaps.get(0));
    }

    @Test
    void whenNoIntactSnapshotIsCoveredByTheLogOpeningFailsWithAClearError() throws Exception {
        for (int i = 0; i < 20; i++) {
            upsert(0, 20, "v" + i + "-");
        }
        KvSnapshotInfo snap = store.snapshot(BUCKET);
        clock.advance(Duration.ofHours(2));
        store.runRetention();
        assertThat(store.startOffset(BUCKET)).isPositive();
        store.close();
        Files.delete(anSst(snapshotDir(TABLE, snap.snapshotId())));

        store = BucketStore.open(dir, conf, clock);
        assertThatThrownBy(() -> store.openTable(TABLE, descriptor, 0, PK_SCHEMA))
                .isInstanceOf(dev.tributary.common.exception.CorruptDataException.class)
                .hasMessageContaining("needs the log from offset 0");
    }
}
