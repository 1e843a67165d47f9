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
 */
public record ReaderModel(
        double logBytesPerSecond,
        double snapshotBytesPerSecond,
        Duration splitOverhead,
        Duration commitTime,
        long splitMaxRecords) {

    /** Used when nothing better is known: the order of magnitude measured in bench/README.md. */
    public static final ReaderModel DEFAULT =
            new ReaderModel(20e6, 10e6, Duration.ofMillis(200), Duration.ofMillis(500), 1_000_000);

    public ReaderModel {
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
                logBytesPerSecond, snapshotBytesPerSecond, d, commitTime, splitMaxRecords);
    }

    public ReaderModel withCommitTime(Duration d) {
        return new ReaderModel(
                logBytesPerSecond, snapshotBytesPerSecond, splitOverhead, d, splitMaxRecords);
    }

    /** Milliseconds a split takes that reads {@code bytes} of the given kind. */
    public long splitMillis(long bytes, boolean snapshot) {
        double rate = snapshot ? snapshotBytesPerSecond : logBytesPerSecond;
        return splitOverhead.toMillis() + (long) Math.ceil(bytes * 1000.0 / rate);
    }
}
