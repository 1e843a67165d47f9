package dev.tributary.server.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.NotLeaderForBucketException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.LogBatchBuilder;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.BucketReplicas;
import dev.tributary.storage.AppendResult;
import dev.tributary.storage.BucketStore;
import dev.tributary.storage.kv.KvBucket;
import dev.tributary.storage.log.FlushPolicy;
import dev.tributary.storage.log.LogBucket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's replica manager on real logs and KV state (T50, T51): a replica that restarts and
 * leads shows readers what was acknowledged before at once (its high watermark is checkpointed at a
 * stop and periodically, not rebuilt from zero by its followers' next fetches); a replica whose
 * bucket moved away refuses writes; a deposed primary-key leader's role change leaves its KV
 * rebuild to its fetcher.
 */
class ReplicaManagerRestartTest {
    private static final TableBucket TB = new TableBucket(9, 0);
    private static final Schema SCHEMA =
            Schema.newBuilder().column("id", DataTypes.BIGINT()).build();
    private static final RowCodec CODEC = RowCodec.of(SCHEMA);

    @TempDir Path dir;
    private final ManualClock clock = new ManualClock(1_000);

    private ReplicaManager manager(LogBucket log) {
        return new ReplicaManager(
                1,
                b -> log,
                b -> Optional.empty(),
                id -> Optional.empty(),
                "",
                ReplicaOptions.Settings.of(
                        new Configuration().setString("min.insync.replicas", "1")),
                clock,
                () -> true);
    }

    private static byte[] batch(long id) {
        LogBatchBuilder b = new LogBatchBuilder(0, 256);
        for (int i = 0; i < 10; i++) {
            b.add(ChangeType.APPEND_ONLY, 1_000, Row.of(id * 10 + i), CODEC);
        }
        return b.build();
    }

    @Test
    void aRestartedLeaderShowsWhatWasAcknowledgedBeforeItsFollowersFetch() throws Exception {
        Path logDir = dir.resolve("log");
        LogBucket log =
                LogBucket.open(TB, logDir, new LogBucket.Config(1 << 20, 4096, FlushPolicy.FSYNC));
        // leading alone in sync: each append is acknowledged at once
        ReplicaManager before = manager(log);
        before.apply(TB, new BucketReplicas(List.of(1, 2, 3), 1, 0, List.of(1)));
        for (long i = 0; i < 3; i++) {
            log.append(batch(i)).durable().get(10, TimeUnit.SECONDS);
        }
        assertThat(log.endOffset()).isEqualTo(30);
        before.close();
        assertThat(logDir.resolve("high-watermark")).exists();
        log.close();

        // back, leading with followers in sync that have not fetched yet
        LogBucket reopened =
                LogBucket.open(TB, logDir, new LogBucket.Config(1 << 20, 4096, FlushPolicy.FSYNC));
        ReplicaManager after = manager(reopened);
        after.apply(TB, new BucketReplicas(List.of(1, 2, 3), 1, 1, List.of(1, 2, 3)));
        assertThat(reopened.endOffset()).as("readers see the acknowledged records").isEqualTo(30);
        after.close();
        reopened.close();

        // a damaged checkpoint reads as none: readers wait for the followers, nothing more
        Files.write(logDir.resolve("high-watermark"), new byte[] {1, 2, 3});
        LogBucket damaged =
                LogBucket.open(TB, logDir, new LogBucket.Config(1 << 20, 4096, FlushPolicy.FSYNC));
        ReplicaManager third = manager(damaged);
        third.apply(TB, new BucketReplicas(List.of(1, 2, 3), 1, 2, List.of(1, 2, 3)));
        assertThat(damaged.endOffset()).isZero();
        third.close();
        damaged.close();
    }

    @Test
    void aDeposedPrimaryKeyLeaderFollowsAtOnceAndLeavesItsKvRebuildToItsFetcher() throws Exception {
        Schema pk =
                Schema.newBuilder()
                        .column("k", DataTypes.INT())
                        .column("v", DataTypes.STRING().notNull())
                        .primaryKey("k")
                        .build();
        try (BucketStore store =
                BucketStore.open(
                        dir.resolve("pk"),
                        new Configuration().setString("kv.snapshot.interval", "1d"),
                        clock)) {
            store.createTable(
                    TB.tableId(), TableDescriptor.builder(pk).bucketCount(1).build(), 0, pk);
            ReplicaManager manager =
                    new ReplicaManager(
                            1,
                            store::replicaLog,
                            store::replicaKv,
                            id -> Optional.empty(), // the new leader cannot be reached
                            "",
                            ReplicaOptions.Settings.of(
                                    new Configuration().setString("min.insync.replicas", "1")),
                            clock,
                            () -> true);
            manager.apply(TB, new BucketReplicas(List.of(1, 2), 1, 0, List.of(1)));
            KvBucket kv = store.replicaKv(TB).orElseThrow();
            store.append(upsert(pk, 0, "a")).get(10, TimeUnit.SECONDS);
            long acknowledged = kv.appliedOffset();

            // server 2 joins the in-sync set and never fetches: this write is applied here only
            manager.apply(TB, new BucketReplicas(List.of(1, 2), 1, 0, List.of(1, 2)));
            CompletableFuture<AppendResult> unacknowledged = store.append(upsert(pk, 0, "b"));
            assertThat(kv.appliedOffset()).isGreaterThan(acknowledged);

            manager.apply(TB, new BucketReplicas(List.of(1, 2), 2, 1, List.of(2)));
            assertThat(kv.role()).isEqualTo(KvBucket.Role.FOLLOWER);
            assertThat(kv.appliedOffset())
                    .as("the rebuild waits for the first catch-up, on a fetcher thread")
                    .isGreaterThan(acknowledged);
            assertThatThrownBy(() -> unacknowledged.get(10, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(NotLeaderForBucketException.class);
            manager.close();
        }
    }

    private static WriteBatch upsert(Schema pk, int key, String value) {
        return WriteBatch.builder(TB.tableId(), 0, 0, pk).upsert(Row.of(key, value)).build();
    }

    @Test
    void aLeaderWhoseBucketMovedAwayTakesNoMoreWrites() throws Exception {
        LogBucket log =
                LogBucket.open(
                        TB,
                        dir.resolve("moved"),
                        new LogBucket.Config(1 << 20, 4096, FlushPolicy.FSYNC));
        ReplicaManager manager = manager(log);
        BucketReplicas leading = new BucketReplicas(List.of(1, 2), 1, 0, List.of(1));
        manager.apply(TB, leading);
        log.append(batch(0)).durable().get(10, TimeUnit.SECONDS);

        // the move to [2, 3] ended: this server is no replica any more
        manager.apply(TB, new BucketReplicas(List.of(2, 3), 2, 1, List.of(2, 3)));
        assertThatThrownBy(() -> log.append(batch(1)))
                .isInstanceOf(NotLeaderForBucketException.class)
                .hasMessageContaining("moved to servers [2, 3]");
        assertThat(log.endOffset()).as("readers still see what was acknowledged").isEqualTo(10);
        manager.close();
        log.close();
    }
}
