package dev.tributary.tiering.split;

import dev.tributary.tiering.api.BucketPlan;
import dev.tributary.tiering.api.RoundPlan;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Turns a round plan into splits: at most one split per (partition, bucket) with new data (T1,
 * T32), log-table ranges larger than {@code maxRecordsPerSplit} cut into near-equal offset ranges
 * (T5), then shuffled with the given random (T2) so that a heavy bucket, or the tail that
 * force-finish skips, does not always land on the same reader or bucket.
 *
 * <p>A PK table's changelog range is never cut: its records must reach the lake in log order per
 * key, and the lake orders the files of one commit by writer, not by offset, so two writers of one
 * bucket could let an older update win.
 */
public final class SplitPlanner {
    private final long maxRecordsPerSplit;
    private final Random random;

    public SplitPlanner(long maxRecordsPerSplit, Random random) {
        if (maxRecordsPerSplit < 1) {
            throw new IllegalArgumentException(
                    "max records per split must be >= 1: " + maxRecordsPerSplit);
        }
        this.maxRecordsPerSplit = maxRecordsPerSplit;
        this.random = random;
    }

    /** The round's splits in assignment order. Empty when no bucket has anything new (T27). */
    public List<TieringSplit> plan(RoundPlan round) {
        List<TieringSplit> splits = new ArrayList<>();
        for (BucketPlan b : round.buckets()) {
            if (b.isSnapshot()) {
                splits.add(
                        TieringSplit.snapshot(
                                        round.tableId(),
                                        round.path(),
                                        round.epoch(),
                                        round.roundId(),
                                        b.bucket(),
                                        b.snapshotId(),
                                        b.endOffset())
                                .inPartition(
                                        b.partitionId(), round.partitionName(b.partitionId())));
                continue;
            }
            long pending = b.pendingRecords();
            if (pending <= 0) {
                continue;
            }
            long pieces =
                    round.primaryKey()
                            ? 1
                            : (pending + maxRecordsPerSplit - 1) / maxRecordsPerSplit;
            long from = b.startOffset();
            for (long i = 0; i < pieces; i++) {
                // spread the remainder so that pieces differ by at most one record
                long to = b.startOffset() + (pending * (i + 1)) / pieces;
                splits.add(
                        TieringSplit.log(
                                        round.tableId(),
                                        round.path(),
                                        round.epoch(),
                                        round.roundId(),
                                        b.bucket(),
                                        from,
                                        to)
                                .inPartition(
                                        b.partitionId(), round.partitionName(b.partitionId())));
                from = to;
            }
        }
        Collections.shuffle(splits, random);
        return splits;
    }
}
