package dev.tributary.server.replica;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotLeaderForBucketException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.LogBatches;
import dev.tributary.storage.kv.KvBucket;
import dev.tributary.storage.kv.KvSnapshotInfo;
import dev.tributary.storage.kv.KvSnapshotTransfer.Download;
import dev.tributary.storage.kv.KvSnapshotTransfer.Manifest;
import dev.tributary.storage.log.LeaderEpochCache;
import dev.tributary.storage.log.LeaderEpochCache.Divergence;
import dev.tributary.storage.log.LeaderEpochCache.EpochStart;
import dev.tributary.storage.log.LogBucket;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This server copying one bucket's log from its leader (T50): each fetch asks for the records after
 * the end of this log, naming the epoch of its last record; the answer's records are appended with
 * the leader's offsets and epochs, or, if this log diverged (a tail written by a leader that lost
 * its leadership before any in-sync replica copied it), the log is cut where the leader says the
 * epochs part and the next fetch continues from there. A log that ends below the leader's log start
 * (retention there deleted what it misses) is emptied and starts again at the leader's start.
 *
 * <p>A primary-key bucket's replica also keeps its KV state: it applies what it copied up to the
 * leader's high watermark after each fetch ({@link KvBucket#catchUp}), and drops applied changes a
 * divergent tail or its own leadership left past the high watermark ({@link KvBucket#follow}: the
 * state is rebuilt at the next catch-up, so starting to follow never waits for it). A primary-key
 * replica whose log ends below the leader's start cannot rebuild its state from the log (the
 * records below are gone): it copies the leader's newest KV snapshot and starts over from it
 * ({@link KvSnapshotCopy}, T53).
 *
 * <p>As the log's {@link LogBucket.Replication} it refuses appends from writers and lets readers
 * see the leader's high watermark only. Driven by one thread at a time (its {@link
 * ReplicaFetcher}).
 */
public final class FollowerReplica implements LogBucket.Replication {
    private static final Logger LOG = LoggerFactory.getLogger(FollowerReplica.class);

    private final TableBucket bucket;
    private final int serverId;
    private final int leaderId;
    private final LogBucket log;
    private final LeaderEpochCache epochs;
    private final KvBucket kv;
    private volatile long highWatermark;

    /**
     * Starts following: from now on the log takes records from the leader only, and the KV state
     * (of a primary-key bucket) holds acknowledged changes only.
     *
     * @param kv the bucket's KV state, or null for a log table's bucket
     * @param highWatermark the high watermark known so far (0 if none)
     */
    public FollowerReplica(
            TableBucket bucket,
            int serverId,
            int leaderId,
            LogBucket log,
            KvBucket kv,
            long highWatermark) {
        this.bucket = bucket;
        this.serverId = serverId;
        this.leaderId = leaderId;
        this.log = log;
        this.kv = kv;
        this.epochs = log.leaderEpochs();
        // epochs are recorded before the records they start, so a crash that cost the log its
        // unsynced tail can leave an epoch starting past the end: no record of it is here
        epochs.truncateFromEnd(log.writtenEndOffset() + 1);
        this.highWatermark = Math.min(highWatermark, log.writtenEndOffset());
        log.replicate(this);
        if (kv != null) {
            // returns at once: a state past the high watermark is rebuilt at the first catch-up,
            // on the fetcher's thread, not on the metadata apply thread that runs this
            kv.follow(this.highWatermark);
        }
    }

    @Override
    public void checkCanAppend() {
        throw new NotLeaderForBucketException(
                "this server follows bucket "
                        + bucket
                        + "; server "
                        + leaderId
                        + " leads it: send the write there");
    }

    @Override
    public CompletableFuture<Void> acknowledged(long durableEnd, long endOffset) {
        // an append that passed checkCanAppend while this replica still led: it may or may not
        // survive (the new leader may lack it); the idempotent writer's retry at the new leader is
        // appended once or answered as a duplicate
        return CompletableFuture.failedFuture(
                new NotLeaderForBucketException(
                        "this server stopped leading bucket "
                                + bucket
                                + " while the write was appended; server "
                                + leaderId
                                + " leads it: retry there"));
    }

    /** The next fetch from the leader of {@code leaderEpoch}. */
    public ReplicaFetch.Request nextFetch(int leaderEpoch, int maxBytes, int maxWaitMillis) {
        int last = epochs.latest().map(EpochStart::epoch).orElse(-1);
        return new ReplicaFetch.Request(
                serverId,
                bucket,
                leaderEpoch,
                log.writtenEndOffset(),
                last,
                maxBytes,
                maxWaitMillis);
    }

    /**
     * Applies the leader's answer: appends its records (durably) or cuts a divergent tail.
     *
     * @return whether the log changed (another fetch should follow at once)
     * @throws dev.tributary.common.exception.InvalidInputException if the records are damaged or do
     *     not continue this log (nothing is appended)
     */
    public boolean apply(ReplicaFetch.Answer answer) {
        long fetchedFrom = log.writtenEndOffset();
        if (needsSnapshot(answer)) {
            throw new IllegalStateException(
                    "bucket " + bucket + ": copy the leader's KV snapshot first (needsSnapshot)");
        }
        if (answer.startsPast(fetchedFrom)) {
            log.restartAt(
                    answer.logStartOffset(),
                    new NotLeaderForBucketException(
                            "bucket " + bucket + " is followed here, not led"));
            highWatermark = Math.min(answer.highWatermark(), log.writtenEndOffset());
            LOG.info(
                    "bucket {}: the leader's log starts at {}, past this log's end {} (retention"
                            + " deleted the records between): emptied this log to copy from there",
                    bucket,
                    answer.logStartOffset(),
                    fetchedFrom);
            return true;
        }
        if (answer.divergingEpochEnd().isPresent()) {
            long end = log.writtenEndOffset();
            Divergence d = epochs.divergence(answer.divergingEpochEnd().get(), end, highWatermark);
            long cut =
                    log.truncateTo(
                            d.cutAt(),
                            new NotLeaderForBucketException(
                                    "bucket " + bucket + " is followed here, not led"));
            epochs.truncateFromEnd(cut);
            if (kv != null) {
                kv.follow(Math.min(highWatermark, cut));
            }
            LOG.info(
                    "bucket {}: log diverged from the leader's; cut from {} to {}",
                    bucket,
                    end,
                    cut);
            return cut < end;
        }
        if (answer.records().length == 0) {
            advanceHighWatermark(answer.highWatermark());
            return false;
        }
        long firstBase = LogBatches.of(answer.records()).iterator().next().baseOffset();
        if (firstBase < log.writtenEndOffset() && log.startOffset() == log.writtenEndOffset()) {
            // this log started over at a KV snapshot's offset, which lies inside one of the
            // leader's batches (a state may stop inside a batch): it starts at that batch, whose
            // records below the old start the KV state holds already
            LOG.info(
                    "bucket {}: the leader's batch holding offset {} starts at {}: this empty log"
                            + " starts there",
                    bucket,
                    log.writtenEndOffset(),
                    firstBase);
            log.restartAt(
                    firstBase,
                    new NotLeaderForBucketException(
                            "bucket " + bucket + " is followed here, not led"));
        }
        long from = log.writtenEndOffset();
        for (EpochStart e : answer.epochs()) {
            if (epochs.latest().map(l -> l.epoch() < e.epoch()).orElse(true)) {
                epochs.assign(e.epoch(), Math.max(e.startOffset(), from));
            }
        }
        log.appendAsFollower(answer.records()).durable().join();
        advanceHighWatermark(answer.highWatermark());
        return true;
    }

    /**
     * Whether the leader's answer says this primary-key replica's log ends below the leader's log
     * start: its state cannot be rebuilt without the records retention deleted there, so it copies
     * the leader's newest KV snapshot ({@link KvSnapshotCopy}) and starts over from it.
     */
    public boolean needsSnapshot(ReplicaFetch.Answer answer) {
        return kv != null && answer.startsPast(log.writtenEndOffset());
    }

    /** Prepares to receive the leader's snapshot {@code m}. */
    Download startSnapshotCopy(Manifest m) {
        if (kv == null || m.logOffset() < log.writtenEndOffset()) {
            throw new InvalidInputException(
                    "bucket "
                            + bucket
                            + ": the leader's snapshot at "
                            + m.logOffset()
                            + " does not help a replica whose log ends at "
                            + log.writtenEndOffset());
        }
        return kv.snapshotTransfer().download(m);
    }

    /**
     * Installs a copied snapshot as this replica's newest, empties the log and starts it at the
     * snapshot's offset, and rebuilds the KV state from the snapshot; fetching continues there.
     *
     * @return the offset the log starts at now
     */
    long startOver(Download copied) {
        long from = log.writtenEndOffset();
        KvSnapshotInfo installed = copied.install();
        log.restartAt(
                installed.logOffset(),
                new NotLeaderForBucketException("bucket " + bucket + " is followed here, not led"));
        highWatermark = log.writtenEndOffset();
        kv.restartFollowing(highWatermark);
        LOG.info(
                "bucket {}: the leader's log starts past this log's end {}: copied its KV snapshot"
                        + " at offset {} ({} files) and continue from there",
                bucket,
                from,
                installed.logOffset(),
                copied.manifest().files().size());
        return installed.logOffset();
    }

    int serverId() {
        return serverId;
    }

    private void advanceHighWatermark(long leaders) {
        highWatermark = Math.min(leaders, log.writtenEndOffset());
        if (kv != null) {
            kv.catchUp(highWatermark);
        }
    }

    /** The leader's high watermark as last fetched, capped at this log's end. */
    @Override
    public long highWatermark() {
        return highWatermark;
    }

    public TableBucket bucket() {
        return bucket;
    }
}
