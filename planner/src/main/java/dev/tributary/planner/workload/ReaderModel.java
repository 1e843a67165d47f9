package dev.tributary.planner.workload;

import dev.tributary.common.exception.InvalidInputException;
import java.time.Duration;

/**
 * How fast one reader of a tiering job moves data, the modeled part of a simulation: a split of
 * {@code b} bytes takes {@code splitOverhead + b / throughput}, where the throughput is the log's
 * or the KV snapshot's; a round's lake commit takes {@code commitTime}.
 *
 * @param logBytesPerSecond bytes of log records one reader reads from the store and writes to the
 *     lake per second (changelog of primary-key tables included)
 * @param snapshotBytesPerSecond the same for KV snapshot splits (first rounds of primary-key
 *     tables)
 * @param splitOverhead fixed cost of one split: opening the bucket's stream and a lake writer,
 *     closing the files, handing the result back
 * @param commitTime how long a round's lake commit takes once its last split ended
 * @param splitMaxRecords {@code tiering.split.max-records}: a log-table bucket with more pending
 *     records is cut into several splits (T5)
 * @param jitter how much rounds vary around the model: each round's splits and commit take the
 *     model's time times {@code exp(jitter * Z - jitter^2 / 2)} for a normal {@code Z} drawn per
 *     round (mean-preserving), so GC pauses and a shared machine's cores show in the p99 and peak
 *     lag; 0 for none
 */
public record ReaderModel(
        double logBytesPerSecond,
        double snapshotBytesPerSecond,
        Duration splitOverhead,
        Duration commitTime,
        long splitMaxRecords,
        double jitter) {

    /** Used when nothing better is known: the order of magnitude measured in bench/README.md. */
    public static final ReaderModel DEFAULT =
            new ReaderModel(20e6, 10e6, Duration.ofMillis(200), Duration.ofMillis(500), 1_000_000);

    /** A model whose rounds take exactly the model's time. */
    public ReaderModel(
            double logBytesPerSecond,
            double snapshotBytesPerSecond,
            Duration splitOverhead,
            Duration commitTime,
            long splitMaxRecords) {
        this(
                logBytesPerSecond,
                snapshotBytesPerSecond,
                splitOverhead,
                commitTime,
                splitMaxRecords,
                0);
    }

    public ReaderModel {
        if (!(jitter >= 0) || jitter > 3) {
            throw new InvalidInputException("jitter must be between 0 and 3, got " + jitter);
        }
        if (!(logBytesPerSecond > 0) || !(snapshotBytesPerSecond > 0)) {
            throw new InvalidInputException(
                    "reader throughput must be > 0 bytes/s, got log "
                            + logBytesPerSecond
                            + " and snapshot "
                            + snapshotBytesPerSecond);
        }
        if (splitOverhead.isNegative() || commitTime.isNegative()) {
            throw new InvalidInputException("split overhead and commit time must be >= 0");
        }
        if (splitMaxRecords < 1) {
            throw new InvalidInputException("split-max-records must be >= 1");
        }
    }

    public ReaderModel withSplitOverhead(Duration d) {
        return new ReaderModel(
                logBytesPerSecond, snapshotBytesPerSecond, d, commitTime, splitMaxRecords, jitter);
    }

    public ReaderModel withCommitTime(Duration d) {
        return new ReaderModel(
                logBytesPerSecond,
                snapshotBytesPerSecond,
                splitOverhead,
                d,
                splitMaxRecords,
                jitter);
    }

    public ReaderModel withJitter(double j) {
        return new ReaderModel(
                logBytesPerSecond,
                snapshotBytesPerSecond,
                splitOverhead,
                commitTime,
                splitMaxRecords,
                j);
    }

    /** Milliseconds a split takes that reads {@code bytes} of the given kind. */
    public long splitMillis(long bytes, boolean snapshot) {
        double rate = snapshot ? snapshotBytesPerSecond : logBytesPerSecond;
        return splitOverhead.toMillis() + (long) Math.ceil(bytes * 1000.0 / rate);
    }
}
