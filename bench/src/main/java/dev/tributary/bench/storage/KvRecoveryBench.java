package dev.tributary.bench.storage;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.io.DurableFiles;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.record.WriteBatchBuilder;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.storage.BucketStore;
import dev.tributary.storage.kv.KvBucket;
import dev.tributary.storage.log.LogBucket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * How long a replicated primary-key bucket's replica takes to get its KV state right, against the
 * size of the state (T51, issue 23's "PK recovery time vs KV size"), on the store's own code: one
 * bucket of {@code --keys} keys (~100-byte rows) written in batches of 1,000, a snapshot, then a
 * tail of updates.
 *
 * <ul>
 *   <li><b>promote</b>: a follower named leader ({@link KvBucket#lead}): it applies what it copied
 *       past the high watermark it knew, here one fetch's worth ({@code --tail-lead} records). This
 *       is what a failover costs a PK bucket beyond the log's failover.
 *   <li><b>step down</b>: a replica whose state holds changes past the high watermark (a deposed
 *       leader, or a restart) starts following ({@link KvBucket#follow}); this is what the role
 *       change costs the metadata apply thread.
 *   <li><b>rebuild</b>: that replica's first catch-up ({@link KvBucket#catchUp}, on a fetcher
 *       thread) rebuilds its state: the newest snapshot below the high watermark plus the log since
 *       ({@code --tail} updates after the snapshot).
 *   <li><b>full replay</b>, the baseline: the same state from the whole changelog (the store opened
 *       without any snapshot), what a replica without snapshots or KV of its own would pay.
 * </ul>
 *
 * <p>The replication protocol is not run here: the high watermark is set directly (the servers'
 * replicas make the same calls, {@code ReplicatedPrimaryKeyITCase}). Usage: {@code KvRecoveryBench
 * [--keys 100000,1000000,4000000] [--tail 100000] [--tail-lead 1000] [--dir PATH]}.
 */
public final class KvRecoveryBench {
    private static final long TABLE = 1;
    private static final TableBucket BUCKET = new TableBucket(TABLE, 0);
    private static final Schema SCHEMA =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT().notNull())
                    .column("ts", DataTypes.BIGINT())
                    .column("payload", DataTypes.STRING())
                    .primaryKey("id")
                    .build();
    private static final int BATCH = 1_000;

    private KvRecoveryBench() {}

    /** A replica's high watermark as the bench sets it. */
    private static final class SetHighWatermark implements LogBucket.Replication {
        private final boolean leads;
        private final long highWatermark;

        SetHighWatermark(boolean leads, long highWatermark) {
            this.leads = leads;
            this.highWatermark = highWatermark;
        }

        @Override
        public void checkCanAppend() {
            if (!leads) {
                throw new IllegalStateException("a follower takes no writes");
            }
        }

        @Override
        public CompletableFuture<Void> acknowledged(long durableEnd, long endOffset) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public long highWatermark() {
            return highWatermark;
        }
    }

    public static void main(String[] args) throws Exception {
        List<Integer> sizes = List.of(100_000, 1_000_000, 4_000_000);
        int tail = 100_000;
        int tailLead = 1_000;
        Path dir = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--keys" -> {
                    List<Integer> s = new ArrayList<>();
                    for (String k : args[++i].split(",")) {
                        s.add(Integer.parseInt(k));
                    }
                    sizes = s;
                }
                case "--tail" -> tail = Integer.parseInt(args[++i]);
                case "--tail-lead" -> tailLead = Integer.parseInt(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Path root = dir != null ? dir : Files.createTempDirectory("kv-recovery");
        System.out.printf(
                Locale.ROOT,
                "%10s %10s %12s %14s %12s %14s %14s %10s%n",
                "keys",
                "log MB",
                "promote ms",
                "step down ms",
                "rebuild ms",
                "full replay ms",
                "rebuild/full",
                "per Mkey");
        for (int keys : sizes) {
            run(root.resolve("keys-" + keys), keys, tail, tailLead);
        }
    }

    private static void run(Path dir, int keys, int tail, int tailLead) throws Exception {
        Configuration conf = new Configuration().setString("kv.snapshot.interval", "1d");
        TableDescriptor table = TableDescriptor.builder(SCHEMA).bucketCount(1).build();
        Random random = new Random(keys);
        long stepDownMicros;
        long rebuildMillis;
        long promoteMillis;
        long logBytes;
        try (BucketStore store = BucketStore.open(dir, conf, Clock.system())) {
            store.createTable(TABLE, table, 0, SCHEMA);
            for (int from = 0; from < keys; from += BATCH) {
                upsert(store, from, Math.min(keys, from + BATCH), random);
            }
            long snapshotAt = store.snapshot(BUCKET).logOffset();
            for (int i = 0; i < tail; i += BATCH) {
                upsertRandom(store, keys, Math.min(BATCH, tail - i), random);
            }
            LogBucket log = store.replicaLog(BUCKET);
            KvBucket kv = store.replicaKv(BUCKET).orElseThrow();
            long end = log.durableEndOffset();
            logBytes = log.sizeInBytes();

            // a deposed leader (or a restart): its state is past the high watermark
            long followerHw = end;
            log.replicate(new SetHighWatermark(false, followerHw));
            long t0 = System.nanoTime();
            kv.follow(followerHw - 1);
            stepDownMicros = (System.nanoTime() - t0) / 1_000;
            t0 = System.nanoTime();
            kv.catchUp(followerHw - 1);
            rebuildMillis = (System.nanoTime() - t0) / 1_000_000;
            check(kv.appliedOffset() == followerHw - 1, "rebuilt to the high watermark");

            // the follower copied one more fetch past what it applied, then is named leader
            log.replicate(new SetHighWatermark(true, Long.MAX_VALUE));
            kv.lead();
            for (int i = 0; i < tailLead; i += BATCH) {
                upsertRandom(store, keys, Math.min(BATCH, tailLead - i), random);
            }
            long hw = kv.appliedOffset() - tailLead;
            log.replicate(new SetHighWatermark(false, hw));
            kv.follow(hw);
            kv.catchUp(hw); // (a rebuild: not timed)
            t0 = System.nanoTime();
            log.replicate(new SetHighWatermark(true, Long.MAX_VALUE));
            kv.lead();
            promoteMillis = (System.nanoTime() - t0) / 1_000_000;
            check(kv.appliedOffset() == log.durableEndOffset(), "a leader applied its whole log");
            check(snapshotAt > 0, "a snapshot was taken");
        }
        // the baseline: the whole changelog into an empty state
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.filter(p -> p.endsWith("snapshots")).toList()) {
                DurableFiles.deleteRecursively(p);
            }
        }
        long t0 = System.nanoTime();
        try (BucketStore store = BucketStore.open(dir, conf, Clock.system())) {
            store.openTable(TABLE, table, 0, SCHEMA);
            long fullMillis = (System.nanoTime() - t0) / 1_000_000;
            System.out.printf(
                    Locale.ROOT,
                    "%10d %10.1f %12d %14.3f %12d %14d %14.3f %10.1f%n",
                    keys,
                    logBytes / 1e6,
                    promoteMillis,
                    stepDownMicros / 1e3,
                    rebuildMillis,
                    fullMillis,
                    rebuildMillis / (double) Math.max(1, fullMillis),
                    fullMillis / (keys / 1e6));
        }
        DurableFiles.deleteRecursively(dir);
    }

    private static void upsert(BucketStore store, int from, int to, Random random) {
        WriteBatchBuilder b = WriteBatch.builder(TABLE, 0, 0, SCHEMA);
        for (int k = from; k < to; k++) {
            b.upsert(Row.of((long) k, random.nextLong(), payload(random)));
        }
        store.append(b.build()).join();
    }

    private static void upsertRandom(BucketStore store, int keys, int count, Random random) {
        WriteBatchBuilder b = WriteBatch.builder(TABLE, 0, 0, SCHEMA);
        for (int i = 0; i < count; i++) {
            b.upsert(Row.of((long) random.nextInt(keys), random.nextLong(), payload(random)));
        }
        store.append(b.build()).join();
    }

    private static String payload(Random random) {
        StringBuilder s = new StringBuilder(80);
        for (int i = 0; i < 80; i++) {
            s.append((char) ('a' + random.nextInt(26)));
        }
        return s.toString();
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("bench check failed: " + what);
        }
    }
}
