package dev.tributary.server.replica;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.storage.kv.KvSnapshotTransfer.Download;
import dev.tributary.storage.kv.KvSnapshotTransfer.Manifest;
import dev.tributary.storage.kv.KvSnapshotTransfer.SnapshotFile;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongUnaryOperator;

/**
 * Copies the leader's newest KV snapshot to a primary-key follower whose log ends below the
 * leader's log start (T53), then has the follower start over from it ({@link
 * FollowerReplica#startOver}). One call at a time: the manifest (which leases the snapshot on the
 * leader), then each file chunk by chunk, then the lease's release; every answer is handled on the
 * given executor, so no thread waits for the network. A copy that fails or is stopped leaves the
 * follower as it was (its staging directory is emptied by the next copy). A throttle may delay the
 * next chunk by the bytes of the last (a replica moving here; each chunk renews the lease).
 */
final class KvSnapshotCopy {
    private final FollowerReplica follower;
    private final int leaderEpoch;
    private final ReplicaFetcher.LeaderClient leader;
    private final Executor executor;
    private final int chunkBytes;
    private final BooleanSupplier stopped;
    private final LongUnaryOperator throttle;

    /**
     * @param leaderEpoch the epoch of the leader copied from, as the metadata says
     * @param chunkBytes the most bytes one call asks for
     * @param stopped whether to give up (the replica's role changed)
     * @param throttle the milliseconds to wait before the next chunk, given the bytes of the last
     */
    KvSnapshotCopy(
            FollowerReplica follower,
            int leaderEpoch,
            ReplicaFetcher.LeaderClient leader,
            Executor executor,
            int chunkBytes,
            BooleanSupplier stopped,
            LongUnaryOperator throttle) {
        this.follower = follower;
        this.leaderEpoch = leaderEpoch;
        this.leader = leader;
        this.executor = executor;
        this.chunkBytes = chunkBytes;
        this.stopped = stopped;
        this.throttle = throttle;
    }

    /** Runs the copy; completes with the offset the follower's log restarted at. */
    CompletableFuture<Long> run() {
        return leader.fetchKvSnapshot(
                        KvSnapshotFetch.Request.manifest(
                                follower.serverId(), follower.bucket(), leaderEpoch))
                .thenComposeAsync(
                        a -> {
                            Manifest m =
                                    a.manifest()
                                            .orElseThrow(
                                                    () ->
                                                            new InvalidInputException(
                                                                    "the leader answered no"
                                                                            + " KV snapshot"
                                                                            + " manifest"));
                            Download d = follower.startSnapshotCopy(m);
                            return copy(d, 0)
                                    .thenApply(
                                            v -> {
                                                checkNotStopped();
                                                return follower.startOver(d);
                                            })
                                    .whenComplete((offset, e) -> release(m));
                        },
                        executor);
    }

    private CompletableFuture<Void> copy(Download d, int fileIndex) {
        checkNotStopped();
        List<SnapshotFile> files = d.manifest().files();
        int i = fileIndex;
        while (i < files.size() && d.written(files.get(i).name()) == files.get(i).size()) {
            i++;
        }
        if (i == files.size()) {
            return CompletableFuture.completedFuture(null);
        }
        int next = i;
        SnapshotFile f = files.get(next);
        long at = d.written(f.name());
        return leader.fetchKvSnapshot(
                        KvSnapshotFetch.Request.chunk(
                                follower.serverId(),
                                follower.bucket(),
                                leaderEpoch,
                                d.manifest(),
                                f.name(),
                                at,
                                chunkBytes))
                .thenComposeAsync(
                        a -> {
                            if (a.data().length == 0) {
                                throw new InvalidInputException(
                                        "the leader sent no bytes of "
                                                + f.name()
                                                + " at "
                                                + at
                                                + " of "
                                                + f.size());
                            }
                            d.write(f.name(), at, a.data());
                            long wait = throttle.applyAsLong(a.data().length);
                            return wait <= 0
                                    ? copy(d, next)
                                    : CompletableFuture.runAsync(
                                                    () -> {},
                                                    CompletableFuture.delayedExecutor(
                                                            wait, TimeUnit.MILLISECONDS, executor))
                                            .thenCompose(v -> copy(d, next));
                        },
                        executor);
    }

    private void checkNotStopped() {
        if (stopped.getAsBoolean()) {
            throw new RetriableException(
                    "bucket " + follower.bucket() + ": the snapshot copy stopped (role changed)");
        }
    }

    private void release(Manifest m) {
        // best effort: the lease lapses by itself otherwise
        leader.fetchKvSnapshot(
                KvSnapshotFetch.Request.release(
                        follower.serverId(), follower.bucket(), leaderEpoch, m));
    }
}
