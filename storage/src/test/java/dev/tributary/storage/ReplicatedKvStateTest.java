package dev.tributary.storage;

import static dev.tributary.storage.StoreTestSupport.PK_SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.NotLeaderForBucketException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.record.WriteBatchBuilder;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.storage.kv.KvBucket;
import dev.tributary.storage.kv.KvSnapshotInfo;
import dev.tributary.storage.log.LogBucket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replicated primary-key bucket's KV state (T50, T51) on each replica: what a follower applies,
 * what a leader shows, what a deposed leader keeps. The replication protocol is scripted here (the
 * high watermark and acknowledgements are set by the test); the server's replicas drive the same
 * calls in {@code ReplicatedPrimaryKeyITCase}.
 */
class ReplicatedKvStateTest {
    private static final long TABLE = 7;
    private static final TableBucket BUCKET = new TableBucket(TABLE, 0);

    @TempDir Path dir;
    private final ManualClock clock = new ManualClock(10_000_000);
    private final List<BucketStore> stores = new ArrayList<>();

    @AfterEach
    void close() {
        stores.forEach(BucketStore::close);
    }

    /** Replication as a leader or follower sees it, moved by the test. */
    private static final class ScriptedReplication implements LogBucket.Replication {
        private final boolean leads;

        private record Waiting(long end, CompletableFuture<Void> acknowledged) {}

        private final List<Waiting> waiting = new ArrayList<>();
        private long highWatermark;
        private boolean stopped;

        ScriptedReplication(boolean leads) {
            this.leads = leads;
        }

        @Override
        public void checkCanAppend() {
            if (!leads) {
                throw new NotLeaderForBucketException("followed here");
            }
        }

        @Override
        public synchronized CompletableFuture<Void> acknowledged(long durableEnd, long end) {
            CompletableFuture<Void> f = new CompletableFuture<>();
            if (stopped) {
                f.completeExceptionally(new NotLeaderForBucketException("gone"));
            } else if (end <= highWatermark) {
                f.complete(null);
            } else {
                waiting.add(new Waiting(end, f));
            }
            return f;
        }

        @Override
        public synchronized long highWatermark() {
            return highWatermark;
        }

        /** The in-sync replicas have everything below {@code hw}. */
        synchronized void acknowledge(long hw) {
            highWatermark = hw;
            waiting.stream()
                    .filter(w -> w.end() <= hw)
                    .forEach(w -> w.acknowledged().complete(null));
            waiting.removeIf(w -> w.end() <= hw);
        }

        /** Stops leading: what waits fails, as a deposed leader's writes do. */
        synchronized void stopLeading() {
            stopped = true;
            waiting.forEach(
                    w ->
                            w.acknowledged()
                                    .completeExceptionally(
                                            new NotLeaderForBucketException("gone")));
            waiting.clear();
        }
    }

    private BucketStore open(String name) {
        BucketStore store =
                BucketStore.open(
                        dir.resolve(name),
                        new Configuration().setString("kv.snapshot.interval", "1min"),
                        clock);
        stores.add(store);
        store.createTable(
                TABLE, TableDescriptor.builder(PK_SCHEMA).bucketCount(1).build(), 0, PK_SCHEMA);
        return store;
    }

    private static CompletableFuture<AppendResult> upsert(
            BucketStore store, int from, int to, String value) {
        WriteBatchBuilder b = WriteBatch.builder(TABLE, 0, 0, PK_SCHEMA);
        for (int k = from; k < to; k++) {
            b.upsert(Row.of(k, value + k, (long) k));
        }
        return store.append(b.build());
    }

    private static CompletableFuture<AppendResult> delete(BucketStore store, int from, int to) {
        WriteBatchBuilder b = WriteBatch.builder(TABLE, 0, 0, PK_SCHEMA);
        for (int k = from; k < to; k++) {
            b.delete(Row.of(k, "x", 0L));
        }
        return store.append(b.build());
    }

    private static KvBucket kv(BucketStore store) {
        return store.replicaKv(BUCKET).orElseThrow();
    }

    private static Optional<String> valueOf(BucketStore store, int key) {
        return store.lookup(BUCKET, Row.of(key)).map(r -> r.getString(1));
    }

    private static List<Row> rows(BucketStore store, KvSnapshotInfo snapshot) {
        List<Row> out = new ArrayList<>();
        try (CloseableIterator<Row> it = store.readSnapshot(BUCKET, snapshot.snapshotId())) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    /** Makes the store's bucket a leader whose acknowledgements the test gives. */
    private static ScriptedReplication lead(BucketStore store) {
        ScriptedReplication r = new ScriptedReplication(true);
        store.replicaLog(BUCKET).replicate(r);
        kv(store).lead();
        return r;
    }

    @Test
    void aLeaderShowsAcknowledgedWritesOnlyAndDropsTheOthersWhenItFollows() throws Exception {
        BucketStore store = open("leader");
        LogBucket log = store.replicaLog(BUCKET);
        ScriptedReplication leading = lead(store);
        CompletableFuture<AppendResult> first = upsert(store, 0, 10, "a");
        long acknowledged = log.durableEndOffset();
        leading.acknowledge(acknowledged);
        first.join();
        assertThat(valueOf(store, 1)).hasValue("a1");
        assertThat(store.snapshot(BUCKET).logOffset()).isEqualTo(acknowledged);

        // applied here, not yet on the in-sync replicas: a lookup waits for them
        CompletableFuture<AppendResult> second = upsert(store, 0, 5, "b");
        assertThat(kv(store).appliedOffset()).isGreaterThan(acknowledged);
        CompletableFuture<Optional<String>> lookup =
                CompletableFuture.supplyAsync(() -> valueOf(store, 1));
        // a snapshot waits as well: it must hold nothing a failover takes back
        CompletableFuture<KvSnapshotInfo> snapshot =
                CompletableFuture.supplyAsync(() -> store.snapshot(BUCKET));
        leading.stopLeading();
        assertThatThrownBy(() -> lookup.get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(NotLeaderForBucketException.class);
        assertThatThrownBy(() -> snapshot.get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(NotLeaderForBucketException.class);
        assertThatThrownBy(second::join).isInstanceOf(CompletionException.class);

        // it follows from the high watermark: the step down returns before any rebuild (it runs
        // on the metadata apply thread); the stale state takes no lookups and no snapshots
        log.replicate(new ScriptedReplication(false));
        kv(store).follow(acknowledged);
        assertThat(kv(store).role()).isEqualTo(KvBucket.Role.FOLLOWER);
        assertThat(kv(store).appliedOffset()).isGreaterThan(acknowledged);
        assertThatThrownBy(() -> valueOf(store, 1)).isInstanceOf(NotLeaderForBucketException.class);
        assertThat(kv(store).snapshotDue(0)).isFalse();
        assertThatThrownBy(() -> store.snapshot(BUCKET))
                .isInstanceOf(NotLeaderForBucketException.class);
        // its first catch-up (on the fetcher's thread) drops the unacknowledged upsert
        kv(store).catchUp(acknowledged);
        assertThat(kv(store).appliedOffset()).isEqualTo(acknowledged);
        assertThat(store.snapshot(BUCKET).logOffset()).isEqualTo(acknowledged);
        // the new leader's log diverged there: the tail goes, and a later leadership shows the
        // acknowledged state
        log.truncateTo(acknowledged, new NotLeaderForBucketException("followed"));
        lead(store).acknowledge(acknowledged); // its followers have its log
        assertThat(valueOf(store, 1)).hasValue("a1");
        assertThat(valueOf(store, 9)).hasValue("a9");
        KvSnapshotInfo taken = store.snapshot(BUCKET);
        assertThat(taken.logOffset()).isEqualTo(acknowledged);
        assertThat(rows(store, taken)).extracting(r -> r.getString(1)).contains("a1");
    }

    @Test
    void aFollowerAppliesWhatItCopiedUpToTheHighWatermarkAndTheRestWhenItLeads() {
        BucketStore leader = open("leader");
        ScriptedReplication leading = lead(leader);
        LogBucket leaderLog = leader.replicaLog(BUCKET);
        leading.acknowledge(Long.MAX_VALUE); // followers in sync: writes acknowledged at once
        upsert(leader, 0, 10, "a").join();
        long firstEnd = leaderLog.durableEndOffset();
        upsert(leader, 5, 15, "b").join();
        delete(leader, 0, 3).join();
        long end = leaderLog.durableEndOffset();

        BucketStore follower = open("follower");
        LogBucket followerLog = follower.replicaLog(BUCKET);
        followerLog.replicate(new ScriptedReplication(false));
        kv(follower).follow(0);
        followerLog
                .appendAsFollower(leaderLog.readForFollower(0, 1 << 20).records())
                .durable()
                .join();

        // the leader said only the first batch is on every in-sync replica
        kv(follower).catchUp(firstEnd);
        assertThat(kv(follower).appliedOffset()).isEqualTo(firstEnd);
        KvSnapshotInfo atFirst = follower.snapshot(BUCKET);
        assertThat(atFirst.logOffset()).isEqualTo(firstEnd);
        assertThat(rows(follower, atFirst))
                .extracting(r -> r.getString(1))
                .containsExactly("a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9");

        kv(follower).catchUp(end);
        KvSnapshotInfo atEnd = follower.snapshot(BUCKET);
        assertThat(atEnd.logOffset()).isEqualTo(end);
        assertThat(rows(follower, atEnd)).isEqualTo(rows(leader, leader.snapshot(BUCKET)));

        // told an older high watermark (as after a restart, whose checkpoint lags), it rebuilds
        // from its newest snapshot: taken at an acknowledged offset, it holds nothing a failover
        // takes back
        kv(follower).follow(firstEnd);
        assertThat(kv(follower).appliedOffset()).isEqualTo(end);

        // named leader, it applies the rest of its log before it takes a write; what it holds is
        // not acknowledged in its epoch until its followers have it: a lookup waits for that, and
        // fails if the leadership ends first
        ScriptedReplication promoted = lead(follower);
        CompletableFuture<Optional<String>> early =
                CompletableFuture.supplyAsync(() -> valueOf(follower, 12));
        promoted.stopLeading();
        assertThatThrownBy(() -> early.get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(NotLeaderForBucketException.class);
        lead(follower).acknowledge(Long.MAX_VALUE);
        for (int k = 0; k < 15; k++) {
            assertThat(valueOf(follower, k)).as("key %d", k).isEqualTo(valueOf(leader, k));
        }
        upsert(follower, 0, 1, "c").join();
        assertThat(valueOf(follower, 0)).hasValue("c0");
    }
}
