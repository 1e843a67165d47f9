package dev.tributary.server.replica;

import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotLeaderForBucketException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.metadata.BucketReplicas;
import dev.tributary.storage.log.LeaderEpochCache;
import dev.tributary.storage.log.LeaderEpochCache.EpochEnd;
import dev.tributary.storage.log.LeaderEpochCache.EpochStart;
import dev.tributary.storage.log.LogBucket;
import dev.tributary.storage.replica.InSyncReplicas;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;

/**
 * This server leading one bucket's log in one leader epoch (T50): as the log's {@link
 * LogBucket.Replication}, appends are admitted only with enough replicas in sync and acknowledged
 * once every in-sync replica has them, and readers see the high watermark; followers fetch the log
 * from here. The epoch begins at the log's end when leadership starts; records below it belong to
 * earlier epochs (or to none, for a log written before replication).
 */
public final class LeaderReplica implements LogBucket.Replication {
    private final TableBucket bucket;
    private final int leaderEpoch;
    private final LogBucket log;
    private final LeaderEpochCache epochs;
    private final InSyncReplicas isr;
    private final Consumer<Set<Integer>> proposeIsr;
    private final DelayedFetches delayed;

    /** The longest a follower's fetch is held, whatever it asks for. */
    static final int MAX_WAIT_MILLIS = 10_000;

    private LeaderReplica(
            TableBucket bucket,
            int leaderEpoch,
            LogBucket log,
            LeaderEpochCache epochs,
            InSyncReplicas isr,
            Consumer<Set<Integer>> proposeIsr,
            ScheduledExecutorService executor) {
        this.bucket = bucket;
        this.leaderEpoch = leaderEpoch;
        this.log = log;
        this.epochs = epochs;
        this.isr = isr;
        this.proposeIsr = proposeIsr;
        this.delayed = new DelayedFetches(executor);
    }

    /**
     * Starts leading as the metadata says: records the epoch's start at the log's end (after making
     * the log durable, so the epoch never starts past a record a crash could take back).
     *
     * @param highWatermark the high watermark this replica knew as a follower (0 if none)
     * @param proposeIsr where the in-sync set changes this leader asks for go (to the coordinator,
     *     which writes them to the metadata)
     * @param executor where held fetches are answered
     * @throws IllegalArgumentException if the metadata does not name {@code serverId} as leader
     */
    public static LeaderReplica start(
            TableBucket bucket,
            int serverId,
            BucketReplicas replicas,
            LogBucket log,
            long highWatermark,
            int minInsync,
            long lagTimeMaxMillis,
            Clock clock,
            Consumer<Set<Integer>> proposeIsr,
            ScheduledExecutorService executor) {
        if (replicas.leader() != serverId) {
            throw new IllegalArgumentException(
                    "server " + serverId + " does not lead bucket " + bucket + ": " + replicas);
        }
        log.flush();
        long start = log.durableEndOffset();
        LeaderEpochCache epochs = log.leaderEpochs();
        epochs.assign(replicas.leaderEpoch(), start);
        InSyncReplicas isr =
                new InSyncReplicas(
                        bucket,
                        serverId,
                        replicas.replicas(),
                        Set.copyOf(replicas.isr()),
                        start,
                        highWatermark,
                        minInsync,
                        lagTimeMaxMillis,
                        clock);
        LeaderReplica leader =
                new LeaderReplica(
                        bucket, replicas.leaderEpoch(), log, epochs, isr, proposeIsr, executor);
        log.replicate(leader);
        return leader;
    }

    @Override
    public void checkCanAppend() {
        isr.checkCanAppend();
    }

    @Override
    public CompletableFuture<Void> acknowledged(long durableEnd, long endOffset) {
        // followers waiting for these records fetch them now, so they can be acknowledged
        delayed.onDurable(durableEnd);
        return isr.onLeaderAppend(durableEnd, endOffset);
    }

    /**
     * Answers a follower's fetch like {@link #fetch}, but holds one that finds nothing new for up
     * to its {@code maxWaitMillis} (at most {@value #MAX_WAIT_MILLIS}), until records past its
     * offset are durable here (a long poll).
     */
    public CompletableFuture<ReplicaFetch.Answer> fetchOrWait(ReplicaFetch.Request r) {
        ReplicaFetch.Answer now = fetch(r);
        if (now.records().length > 0
                || now.divergingEpochEnd().isPresent()
                || now.startsPast(r.fetchOffset())
                || r.maxWaitMillis() <= 0) {
            return CompletableFuture.completedFuture(now);
        }
        CompletableFuture<ReplicaFetch.Answer> out = new CompletableFuture<>();
        // the follower's position counted when the fetch arrived; the late answer only reads: a
        // follower gone meanwhile must not look caught up as of the answer
        Runnable answer =
                () -> {
                    try {
                        out.complete(
                                read(
                                        r.fetchOffset(),
                                        r.maxBytes(),
                                        isr.highWatermark(),
                                        log.startOffset()));
                    } catch (RuntimeException e) {
                        out.completeExceptionally(e);
                    }
                };
        long wait = Math.min(r.maxWaitMillis(), MAX_WAIT_MILLIS);
        return delayed.hold(r.fetchOffset(), wait, answer, log.durableEndOffset())
                ? out
                : CompletableFuture.completedFuture(now);
    }

    /**
     * Answers a follower's fetch: the records from its log's end, or where its last epoch ended
     * here if its log diverged from this one.
     *
     * @throws FencedException if the follower names an older epoch than this leader's
     * @throws NotLeaderForBucketException if it names a newer one (this server was replaced)
     */
    public ReplicaFetch.Answer fetch(ReplicaFetch.Request r) {
        checkEpoch(r.followerId(), r.leaderEpoch());
        if (r.fetchOffset() < 0 || r.maxBytes() <= 0) {
            throw new InvalidInputException(
                    "a fetch needs an offset >= 0 and a size > 0, not "
                            + r.fetchOffset()
                            + " and "
                            + r.maxBytes());
        }
        long end = log.durableEndOffset();
        long hw = isr.highWatermark();
        long start = log.startOffset();
        if (r.fetchOffset() < start) {
            // retention deleted what it misses (never an in-sync replica's: the high watermark
            // gates retention): it starts over at this log's start, whatever its tail holds
            return ReplicaFetch.Answer.belowLogStart(hw, start);
        }
        if (r.lastFetchedEpoch() >= 0) {
            EpochEnd mine = epochs.endOffsetFor(r.lastFetchedEpoch(), end);
            if (mine.epoch() < r.lastFetchedEpoch() || mine.endOffset() < r.fetchOffset()) {
                return ReplicaFetch.Answer.diverged(mine, hw, start);
            }
        } else if (r.fetchOffset() > end) {
            return ReplicaFetch.Answer.diverged(EpochEnd.UNKNOWN, hw, start);
        }
        // records a follower already has may be durable here before their append asked for
        // acknowledgement: the follower's offset is checked against what this log really holds
        isr.onLeaderDurable(end);
        InSyncReplicas.FetchOutcome outcome = isr.onFollowerFetch(r.followerId(), r.fetchOffset());
        outcome.proposedIsr().ifPresent(proposeIsr);
        return read(r.fetchOffset(), r.maxBytes(), outcome.highWatermark(), start);
    }

    /**
     * Checks that a follower's call names this leader's epoch.
     *
     * @throws FencedException if it names an older one (it must apply the newer metadata)
     * @throws NotLeaderForBucketException if it names a newer one (this server was replaced)
     */
    public void checkEpoch(int followerId, int followerEpoch) {
        if (followerEpoch < leaderEpoch) {
            throw new FencedException(
                    "server "
                            + followerId
                            + " fetches bucket "
                            + bucket
                            + " in leader epoch "
                            + followerEpoch
                            + ", but this leader's epoch is "
                            + leaderEpoch
                            + ": it must apply the newer metadata first");
        }
        if (followerEpoch > leaderEpoch) {
            throw new NotLeaderForBucketException(
                    "this server led bucket "
                            + bucket
                            + " in epoch "
                            + leaderEpoch
                            + ", not in epoch "
                            + followerEpoch
                            + "; fetch from that epoch's leader");
        }
    }

    /** The records from {@code from} with the epochs they were written in. */
    private ReplicaFetch.Answer read(long from, int maxBytes, long highWatermark, long start) {
        LogBucket.Read read = log.readForFollower(from, maxBytes);
        return new ReplicaFetch.Answer(
                read.records(),
                epochsCovering(from, read.nextOffset()),
                highWatermark,
                start,
                Optional.empty());
    }

    private List<EpochStart> epochsCovering(long from, long to) {
        List<EpochStart> out = new ArrayList<>();
        for (EpochStart e : epochs.entries()) {
            if (e.startOffset() < to) {
                if (e.startOffset() <= from && !out.isEmpty()) {
                    out.clear(); // a newer epoch also starts at or below from
                }
                out.add(e);
            }
        }
        return out;
    }

    @Override
    public long highWatermark() {
        return isr.highWatermark();
    }

    public int leaderEpoch() {
        return leaderEpoch;
    }

    /** Followers' fetches held now, waiting for new records. */
    public int heldFetches() {
        return delayed.size();
    }

    /** This leader's view of its followers. */
    public InSyncReplicas inSyncReplicas() {
        return isr;
    }

    /** Proposes dropping the followers that stopped catching up, if any. Called periodically. */
    public void checkInSync() {
        isr.proposeShrink().ifPresent(proposeIsr);
    }

    /**
     * Stops leading: appends still waiting for followers fail as not led here any more. The caller
     * gives the log its next role ({@link LogBucket#replicate}).
     */
    public void stop() {
        delayed.releaseAll();
        isr.stopLeading(
                new NotLeaderForBucketException(
                        "this server stopped leading bucket "
                                + bucket
                                + " (epoch "
                                + leaderEpoch
                                + ") before the write reached every in-sync replica; it may or"
                                + " may not be in the bucket: an idempotent writer's retry is"
                                + " safe"));
    }
}
