package dev.tributary.tiering.commit;

import dev.tributary.common.id.PartitionBucket;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.api.RoundStats;
import dev.tributary.tiering.event.SplitResultEvent;
import dev.tributary.tiering.split.TieringSplit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns the ended splits of a round into one commit request: one atomic commit over every
 * (partition, bucket) of the round (T32). A bucket's tiered offset may only advance over a gap-free
 * prefix: with several offset-range splits per bucket (T5) and force-finish (T13), a later range
 * can finish while an earlier one stopped short or was skipped. Such later ranges are not committed
 * (their files are listed as discarded) and are read again next round, so nothing is tiered twice.
 */
public final class RoundResultMerger {
    private RoundResultMerger() {}

    /**
     * @param splits every split of the round
     * @param results results of ended splits, by split id
     * @param skipped ids of splits never started (force-finish)
     */
    public static RoundCommit merge(
            String jobId,
            long tableId,
            long epoch,
            long roundId,
            boolean forceFinished,
            List<TieringSplit> splits,
            Map<String, SplitResultEvent> results,
            Set<String> skipped) {
        Map<PartitionBucket, List<TieringSplit>> byBucket = new TreeMap<>();
        for (TieringSplit s : splits) {
            byBucket.computeIfAbsent(s.partitionBucket(), b -> new ArrayList<>()).add(s);
        }
        Map<PartitionBucket, Long> offsets = new HashMap<>();
        List<byte[]> commit = new ArrayList<>();
        List<byte[]> discard = new ArrayList<>();
        long records = 0;
        long bytes = 0;
        for (Map.Entry<PartitionBucket, List<TieringSplit>> e : byBucket.entrySet()) {
            List<TieringSplit> chain = e.getValue();
            chain.sort(Comparator.comparingLong(TieringSplit::startOffset));
            long reached = chain.get(0).startOffset();
            boolean contiguous = true;
            boolean advanced = false;
            for (TieringSplit s : chain) {
                SplitResultEvent r = results.get(s.splitId());
                if (skipped.contains(s.splitId()) || r == null) {
                    if (r == null && !skipped.contains(s.splitId())) {
                        throw new IllegalStateException("split " + s + " has not ended");
                    }
                    contiguous = false;
                    continue;
                }
                if (!contiguous || s.startOffset() != reached) {
                    contiguous = false;
                    if (r.writeResult() != null) {
                        discard.add(r.writeResult());
                    }
                    continue;
                }
                if (r.writeResult() != null) {
                    commit.add(r.writeResult());
                }
                records += r.records();
                bytes += r.bytes();
                reached = r.offsetReached();
                advanced = true;
                if (!s.isSnapshot() && reached < s.endOffset()) {
                    contiguous = false;
                }
            }
            if (advanced) {
                offsets.put(e.getKey(), reached);
            }
        }
        return new RoundCommit(
                jobId,
                tableId,
                epoch,
                roundId,
                new TreeMap<>(offsets),
                commit,
                discard,
                new RoundStats(records, bytes),
                forceFinished);
    }
}
