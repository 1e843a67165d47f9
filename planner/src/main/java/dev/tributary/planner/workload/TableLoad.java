package dev.tributary.planner.workload;

import dev.tributary.common.exception.InvalidInputException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * One lake table as the planner sees it: its shape and settings, and the load its writers put on
 * it.
 *
 * <p>Split durations come from bytes: the writes of a bucket since its last cutoff, or for the
 * first round of a primary-key table its share of the KV state ({@code stateBytes}), divided by the
 * reader's throughput. The hottest bucket receives {@code hotBucketSkew} times the mean bucket's
 * writes (and state), the others share the rest equally: the slowest split sets a round's duration
 * (T4). A table may instead give fixed split durations (the seed's walkthrough gives round
 * durations, not rates): then every split of its first round takes {@code firstSplitDuration} and
 * every later one {@code splitDuration}, whatever the data.
 *
 * @param name the table, {@code db.table} (or a bare name in a what-if file)
 * @param group {@code table.datalake.tiering.group}
 * @param buckets bucket count
 * @param freshness {@code table.datalake.freshness}
 * @param lagTarget the lake lag the table should stay under at p99 ({@code
 *     table.datalake.lag-target}); {@code null} for the default, twice the freshness
 * @param primaryKey whether it is a primary-key table (first round reads KV snapshots, T7)
 * @param writeRecordsPerSecond records appended to its log per second, over all buckets
 * @param recordBytes encoded bytes per log record as the store serves them
 * @param hotBucketSkew the hottest bucket's writes over the mean bucket's, in {@code [1, buckets]}
 * @param stateBytes primary-key tables: bytes of the KV state the first round reads
 * @param tiered the first round is behind it (a primary-key table then reads only its changelog)
 * @param splitDuration fixed model: duration of every split after the first round, else {@code
 *     null}
 * @param firstSplitDuration fixed model: duration of every split of the first round, else {@code
 *     null} (then {@code splitDuration})
 * @param commitTime how long this table's lake commits take, {@code null} for its job's (commit
 *     cost depends on the table: files per round, a primary-key merge)
 * @param logBytesPerSecond how fast one reader moves this table's log (or changelog) records, 0 for
 *     its job's log throughput (a primary-key table's changelog costs the lake writer more per byte
 *     than an append-only log, and schemas differ)
 */
public record TableLoad(
        String name,
        String group,
        int buckets,
        Duration freshness,
        Duration lagTarget,
        boolean primaryKey,
        double writeRecordsPerSecond,
        double recordBytes,
        double hotBucketSkew,
        long stateBytes,
        boolean tiered,
        Duration splitDuration,
        Duration firstSplitDuration,
        Duration commitTime,
        double logBytesPerSecond) {

    /** The group of tables and jobs that name none. */
    public static final String DEFAULT_GROUP = "default";

    public TableLoad {
        Objects.requireNonNull(name, "name");
        group = normalizeGroup(group);
        if (buckets < 1) {
            throw new InvalidInputException(name + ": buckets must be >= 1, got " + buckets);
        }
        if (freshness == null || freshness.isNegative() || freshness.isZero()) {
            throw new InvalidInputException(name + ": freshness must be > 0");
        }
        if (lagTarget != null && (lagTarget.isNegative() || lagTarget.isZero())) {
            throw new InvalidInputException(name + ": lag-target must be > 0");
        }
        if (writeRecordsPerSecond < 0 || Double.isNaN(writeRecordsPerSecond)) {
            throw new InvalidInputException(name + ": the write rate must be >= 0");
        }
        if (!(recordBytes > 0)) {
            throw new InvalidInputException(name + ": record-size must be > 0 bytes");
        }
        if (!(hotBucketSkew >= 1) || hotBucketSkew > buckets) {
            throw new InvalidInputException(
                    name
                            + ": hot-bucket-skew must be between 1 (even buckets) and the bucket"
                            + " count "
                            + buckets
                            + " (every write in one bucket), got "
                            + hotBucketSkew);
        }
        if (stateBytes < 0) {
            throw new InvalidInputException(name + ": state-size must be >= 0");
        }
        if (logBytesPerSecond < 0 || Double.isNaN(logBytesPerSecond)) {
            throw new InvalidInputException(name + ": log-throughput must be > 0");
        }
        if (commitTime != null && commitTime.isNegative()) {
            throw new InvalidInputException(name + ": commit-time must be >= 0");
        }
        if (firstSplitDuration != null && splitDuration == null) {
            throw new InvalidInputException(
                    name + ": first-round-duration needs round-duration for the later rounds");
        }
    }

    /** A table that commits as fast as its job's commit time says. */
    public TableLoad(
            String name,
            String group,
            int buckets,
            Duration freshness,
            Duration lagTarget,
            boolean primaryKey,
            double writeRecordsPerSecond,
            double recordBytes,
            double hotBucketSkew,
            long stateBytes,
            boolean tiered,
            Duration splitDuration,
            Duration firstSplitDuration) {
        this(
                name,
                group,
                buckets,
                freshness,
                lagTarget,
                primaryKey,
                writeRecordsPerSecond,
                recordBytes,
                hotBucketSkew,
                stateBytes,
                tiered,
                splitDuration,
                firstSplitDuration,
                null,
                0);
    }

    static String normalizeGroup(String group) {
        return group == null || group.isBlank() ? DEFAULT_GROUP : group.toLowerCase(Locale.ROOT);
    }

    /** A log table with evenly spread writes. */
    public static TableLoad log(
            String name, int buckets, Duration freshness, double recordsPerSecond, double bytes) {
        return new TableLoad(
                name,
                null,
                buckets,
                freshness,
                null,
                false,
                recordsPerSecond,
                bytes,
                1,
                0,
                true,
                null,
                null);
    }

    /** A table whose splits take fixed times (first round, later rounds). */
    public static TableLoad fixed(
            String name,
            int buckets,
            Duration freshness,
            boolean primaryKey,
            Duration firstSplit,
            Duration laterSplits) {
        return new TableLoad(
                name,
                null,
                buckets,
                freshness,
                null,
                primaryKey,
                1000.0 * buckets,
                100,
                1,
                0,
                false,
                laterSplits,
                firstSplit);
    }

    /** The target its p99 lag is judged against: the lag target, else twice the freshness. */
    public Duration effectiveLagTarget() {
        return lagTarget != null ? lagTarget : freshness.multipliedBy(2);
    }

    public boolean fixedDurations() {
        return splitDuration != null;
    }

    public double writeBytesPerSecond() {
        return writeRecordsPerSecond * recordBytes;
    }

    /**
     * Each bucket's share of the writes (and of the state): bucket 0 is the hottest with {@code
     * hotBucketSkew / buckets}, the others share the rest equally. Sums to 1.
     */
    public double[] bucketShares() {
        double[] out = new double[buckets];
        if (buckets == 1) {
            out[0] = 1;
            return out;
        }
        double hot = hotBucketSkew / buckets;
        out[0] = hot;
        double rest = (1 - hot) / (buckets - 1);
        for (int b = 1; b < buckets; b++) {
            out[b] = rest;
        }
        return out;
    }

    public TableLoad withBuckets(int n) {
        // the keys spread over the new buckets as over the old ones: the hottest bucket keeps its
        // ratio to the mean (a single hot key would not split; the recommendation says so)
        double skew = Math.min(n, hotBucketSkew);
        return new TableLoad(
                name,
                group,
                n,
                freshness,
                lagTarget,
                primaryKey,
                writeRecordsPerSecond,
                recordBytes,
                skew,
                stateBytes,
                tiered,
                splitDuration,
                firstSplitDuration,
                commitTime,
                logBytesPerSecond);
    }

    public TableLoad withFreshness(Duration f) {
        return new TableLoad(
                name,
                group,
                buckets,
                f,
                lagTarget,
                primaryKey,
                writeRecordsPerSecond,
                recordBytes,
                hotBucketSkew,
                stateBytes,
                tiered,
                splitDuration,
                firstSplitDuration,
                commitTime,
                logBytesPerSecond);
    }

    public TableLoad withGroup(String g) {
        return new TableLoad(
                name,
                g,
                buckets,
                freshness,
                lagTarget,
                primaryKey,
                writeRecordsPerSecond,
                recordBytes,
                hotBucketSkew,
                stateBytes,
                tiered,
                splitDuration,
                firstSplitDuration,
                commitTime,
                logBytesPerSecond);
    }

    public TableLoad withCommitTime(Duration c) {
        return new TableLoad(
                name,
                group,
                buckets,
                freshness,
                lagTarget,
                primaryKey,
                writeRecordsPerSecond,
                recordBytes,
                hotBucketSkew,
                stateBytes,
                tiered,
                splitDuration,
                firstSplitDuration,
                c,
                logBytesPerSecond);
    }

    public TableLoad withLogThroughput(double bytesPerSecond) {
        return new TableLoad(
                name,
                group,
                buckets,
                freshness,
                lagTarget,
                primaryKey,
                writeRecordsPerSecond,
                recordBytes,
                hotBucketSkew,
                stateBytes,
                tiered,
                splitDuration,
                firstSplitDuration,
                commitTime,
                bytesPerSecond);
    }

    public TableLoad withLagTarget(Duration t) {
        return new TableLoad(
                name,
                group,
                buckets,
                freshness,
                t,
                primaryKey,
                writeRecordsPerSecond,
                recordBytes,
                hotBucketSkew,
                stateBytes,
                tiered,
                splitDuration,
                firstSplitDuration,
                commitTime,
                logBytesPerSecond);
    }
}
