package dev.tributary.planner.calibrate;

/**
 * One measured round, as the calibration needs it.
 *
 * @param table the table
 * @param snapshot whether its splits read KV snapshots (a primary-key table's first round)
 * @param splits splits the round had (buckets with data, T1)
 * @param parallelism readers of the job that ran it
 * @param bytes encoded bytes the job read for it (the store's own byte count)
 * @param durationMillis from hand-out to recorded commit
 * @param commitMillis how long its lake commit took, -1 when not measured
 * @param skew records of its largest bucket over the mean bucket's, 1 when even or unknown
 */
public record RoundSample(
        String table,
        boolean snapshot,
        int splits,
        int parallelism,
        long bytes,
        long durationMillis,
        long commitMillis,
        double skew) {

    /**
     * Rounds of splits one reader works through one after another: {@code ceil(splits / readers)}.
     */
    public int waves() {
        return (Math.max(1, splits) + Math.max(1, parallelism) - 1) / Math.max(1, parallelism);
    }

    /**
     * Bytes on the round's critical path: every wave but the last reads a mean split, the last the
     * hottest one ({@code skew} times the mean).
     */
    public double criticalBytes() {
        double mean = bytes / (double) Math.max(1, splits);
        return (waves() - 1 + Math.max(1, skew)) * mean;
    }
}
