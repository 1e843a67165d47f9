package dev.tributary.storage;

import static dev.tributary.storage.StoreTestSupport.PK_SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotLeaderForBucketException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.record.WriteBatchBuilder;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.storage.kv.KvBucket;
import dev.tributary.storage.kv.KvSnapshotInfo;
import dev.tributary.storage.kv.KvSnapshotTransfer;
import dev.tributary.storage.kv.KvSnapshotTransfer.Manifest;
import dev.tributary.storage.kv.KvSnapshotTransfer.SnapshotFile;
import dev.tributary.storage.log.LogBucket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica whose log ends below its leader's log start copies the leader's newest KV snapshot
 * (T53): the copy is installed as its own snapshot, its log restarts at the snapshot's offset and
 * its state equals the leader's there. What the other side sends is checked.
 */
class KvSnapshotTransferTest {
    private static final long TABLE = 3;
    private static final TableBucket BUCKET = new TableBucket(TABLE, 0);

    @TempDir Path dir;
    private final ManualClock clock = new ManualClock(10_000_000);
    private BucketStore leader;
    private BucketStore follower;
    private TableDescriptor descriptor;
    private final Configuration conf = new Configuration().setString("log.segment.size", "2kb");

    @BeforeEach
    void open() {
        descriptor =
                TableDescriptor.builder(PK_SCHEMA)
                        .bucketCount(1)
                        .property("kv.snapshot.num-retained", "1")
                        .property("table.log.ttl", "1h")
                        .build();
        leader = BucketStore.open(dir.resolve("leader"), conf, clock);
        leader.createTable(TABLE, descriptor, 0, PK_SCHEMA);
        follower = BucketStore.open(dir.resolve("follower"), conf, clock);
        follower.createTable(TABLE, descriptor, 0, PK_SCHEMA);
    }

    @AfterEach
    void close() {
        leader.close();
        follower.close();
    }

    private void upsert(int from, int to, String value) {
        WriteBatchBuilder b = WriteBatch.builder(TABLE, 0, 0, PK_SCHEMA);
        for (int k = from; k < to; k++) {
            b.upsert(Row.of(k, value + k, (long) k));
        }
        leader.append(b.build()).join();
    }

    @Test
    void t53_aReplicaBehindItsLeadersLogStartCopiesTheNewestSnapshotAndEqualsTheLeaderThere() {
        for (int round = 0; round < 20; round++) {
            upsert(0, 50, "r" + round + "-");
        }
        KvSnapshotInfo snap = leader.snapshot(BUCKET);
        clock.advance(Duration.ofDays(1));
        leader.runRetention();
        assertThat(leader.startOffset(BUCKET)).isPositive().isLessThanOrEqualTo(snap.logOffset());

        KvSnapshotTransfer source = leader.replicaKv(BUCKET).orElseThrow().snapshotTransfer();
        Manifest m = source.leaseNewest();
        assertThat(m.snapshotId()).isEqualTo(snap.snapshotId());
        assertThat(m.logOffset()).isEqualTo(snap.logOffset());
        // a new leader write after the lease does not change what is copied
        upsert(0, 5, "late-");

        KvBucket kv = follower.replicaKv(BUCKET).orElseThrow();
        KvSnapshotTransfer.Download d = kv.snapshotTransfer().download(m);
        for (SnapshotFile f : m.files()) {
            while (d.written(f.name()) < f.size()) {
                long at = d.written(f.name());
                d.write(f.name(), at, source.read(m.leaseId(), m.snapshotId(), f.name(), at, 1000));
            }
        }
        KvSnapshotInfo installed = d.install();
        source.release(m.leaseId());
        assertThat(installed.logOffset()).isEqualTo(snap.logOffset());
        assertThat(follower.listSnapshots(BUCKET)).containsExactly(installed);

        LogBucket log = follower.replicaLog(BUCKET);
        log.restartAt(m.logOffset(), new NotLeaderForBucketException("followed"));
        kv.restartFollowing(m.logOffset());
        assertThat(kv.appliedOffset()).isEqualTo(m.logOffset());
        kv.lead();
        for (int k = 0; k < 50; k++) {
            assertThat(follower.lookup(BUCKET, Row.of(k)))
                    .as("key %d", k)
                    .map(r -> r.getString(1))
                    .contains("r19-" + k);
        }
    }

    @Test
    void t53_aReplicaStoppedBetweenInstallingTheSnapshotAndRestartingItsLogStartsAtTheSnapshot() {
        for (int round = 0; round < 20; round++) {
            upsert(0, 50, "r" + round + "-");
        }
        leader.snapshot(BUCKET);
        // the follower holds the first records only, below the snapshot's offset
        follower.replicaLog(BUCKET)
                .appendAsFollower(leader.replicaLog(BUCKET).readForFollower(0, 1).records())
                .durable()
                .join();
        assertThat(follower.endOffset(BUCKET)).isPositive();

        KvSnapshotTransfer source = leader.replicaKv(BUCKET).orElseThrow().snapshotTransfer();
        Manifest m = source.leaseNewest();
        KvSnapshotTransfer.Download d =
                follower.replicaKv(BUCKET).orElseThrow().snapshotTransfer().download(m);
        for (SnapshotFile f : m.files()) {
            while (d.written(f.name()) < f.size()) {
                long at = d.written(f.name());
                d.write(f.name(), at, source.read(m.leaseId(), m.snapshotId(), f.name(), at, 1000));
            }
        }
        d.install();
        // stopped here, before its log started over at the snapshot's offset
        follower.close();
        follower = BucketStore.open(dir.resolve("follower"), conf, clock);
        follower.openTable(TABLE, descriptor, 0, PK_SCHEMA);

        assertThat(follower.startOffset(BUCKET)).isEqualTo(m.logOffset());
        assertThat(follower.endOffset(BUCKET)).isEqualTo(m.logOffset());
        KvBucket kv = follower.replicaKv(BUCKET).orElseThrow();
        assertThat(kv.appliedOffset()).isEqualTo(m.logOffset());
        kv.lead();
        assertThat(follower.lookup(BUCKET, Row.of(7))).map(r -> r.getString(1)).contains("r19-7");
    }

    @Test
    void anEmptyFileOfTheSnapshotIsInstalledToo() throws Exception {
        upsert(0, 5, "a");
        leader.snapshot(BUCKET);
        Manifest m = leader.replicaKv(BUCKET).orElseThrow().snapshotTransfer().leaseNewest();
        // a checkpoint may hold an empty write-ahead log: no chunk ever creates it
        Manifest withEmpty =
                new Manifest(
                        m.leaseId(),
                        m.snapshotId(),
                        m.logOffset(),
                        m.keyEncoding(),
                        List.of(new SnapshotFile("000099.log", 0)));
        KvSnapshotTransfer.Download d =
                follower.replicaKv(BUCKET).orElseThrow().snapshotTransfer().download(withEmpty);
        d.install();
        try (var paths = Files.walk(dir.resolve("follower"))) {
            assertThat(paths.filter(p -> p.getFileName().toString().equals("000099.log")))
                    .singleElement()
                    .satisfies(p -> assertThat(Files.size(p)).isZero());
        }
    }

    @Test
    void whatTheOtherReplicaSendsIsChecked() throws Exception {
        upsert(0, 50, "a");
        leader.snapshot(BUCKET);
        KvSnapshotTransfer source = leader.replicaKv(BUCKET).orElseThrow().snapshotTransfer();
        Manifest m = source.leaseNewest();
        KvSnapshotTransfer target = follower.replicaKv(BUCKET).orElseThrow().snapshotTransfer();
        String file = m.files().get(0).name();

        assertThatThrownBy(() -> source.read(m.leaseId(), m.snapshotId(), "../leases", 0, 10))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("has no file");
        for (String bad : List.of("../x", "a/b", "", "TRIBUTARY-SNAPSHOT")) {
            Manifest evil =
                    new Manifest(1, 1, 0, m.keyEncoding(), List.of(new SnapshotFile(bad, 3)));
            assertThatThrownBy(() -> target.download(evil))
                    .as(bad)
                    .isInstanceOf(InvalidInputException.class);
        }
        KvSnapshotTransfer.Download d = target.download(m);
        assertThatThrownBy(() -> d.write(file, 5, new byte[1]))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("bad chunk");
        assertThatThrownBy(() -> d.write("other", 0, new byte[1]))
                .isInstanceOf(InvalidInputException.class);
        long size = m.files().get(0).size();
        assertThatThrownBy(() -> d.write(file, 0, new byte[(int) size + 1]))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> d.install())
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("bytes");
        assertThat(follower.listSnapshots(BUCKET)).isEmpty();

        // an unfinished copy is gone after a restart
        try (var paths = Files.walk(dir.resolve("follower"))) {
            assertThat(paths.map(p -> p.getFileName().toString())).contains("incoming");
        }
        follower.close();
        follower =
                BucketStore.open(
                        dir.resolve("follower"),
                        new Configuration().setString("log.segment.size", "2kb"),
                        clock);
        follower.openTable(
                TABLE,
                TableDescriptor.builder(PK_SCHEMA)
                        .bucketCount(1)
                        .property("table.log.ttl", "1h")
                        .build(),
                0,
                PK_SCHEMA);
        try (var paths = Files.walk(dir.resolve("follower"))) {
            assertThat(paths.map(p -> p.getFileName().toString()))
                    .doesNotContain("incoming"); // KvSnapshotTransfer.STAGING
        }
    }
}
