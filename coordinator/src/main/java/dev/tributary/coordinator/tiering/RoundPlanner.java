package dev.tributary.coordinator.tiering;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.spi.BucketState;
import dev.tributary.coordinator.spi.BucketStateSource;
import dev.tributary.coordinator.store.TieringRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Turns a table's record and its buckets' state into round work, and checks commits against it. */
final class RoundPlanner {
    private static final Logger LOG = LoggerFactory.getLogger(RoundPlanner.class);

    private final BucketStateSource buckets;

    RoundPlanner(BucketStateSource buckets) {
        this.buckets = buckets;
    }

    /**
     * The work of a round (T1, T7): one entry per bucket with data past its tiered offset; a PK
     * bucket never tiered reads its newest KV snapshot if one exists.
     */
    List<BucketWork> work(TableInfo table, TieringRecord record) {
        int n = table.descriptor().bucketCount();
        List<BucketState> states = buckets.bucketStates(table.tableId(), table.path(), n);
        if (states.size() != n) {
            throw new IllegalStateException(
                    "bucket state source returned "
                            + states.size()
                            + " buckets for "
                            + table.path()
                            + " which has "
                            + n);
        }
        boolean pk = table.descriptor().hasPrimaryKey();
        List<BucketWork> work = new ArrayList<>();
        for (BucketState s : states) {
            long tiered = record.tieredOffset(s.bucket());
            if (tiered < 0) {
                if (pk && s.newestKvSnapshot() != null && s.newestKvSnapshot().logOffset() > 0) {
                    work.add(
                            BucketWork.snapshot(
                                    s.bucket(),
                                    s.newestKvSnapshot().snapshotId(),
                                    s.newestKvSnapshot().logOffset()));
                } else if (s.endOffset() > 0) {
                    work.add(BucketWork.log(s.bucket(), 0, s.endOffset()));
                }
            } else if (s.endOffset() > tiered) {
                work.add(BucketWork.log(s.bucket(), tiered, s.endOffset()));
            } else if (s.endOffset() < tiered) {
                LOG.warn(
                        "bucket {} of {} ends at {} below its tiered offset {}; skipping it",
                        s.bucket(),
                        table.path(),
                        s.endOffset(),
                        tiered);
            }
        }
        return work;
    }

    /**
     * Checks a commit's end offsets against the round plan, so a commit can neither skip data nor
     * claim data past the cutoff.
     *
     * @return the per-bucket end offsets to record (buckets that made no progress dropped)
     * @throws InvalidInputException naming the bucket and the allowed range
     */
    static SortedMap<Integer, Long> validate(RoundPlan plan, Map<Integer, Long> endOffsets) {
        Map<Integer, BucketWork> byBucket = new TreeMap<>();
        for (BucketWork w : plan.buckets()) {
            byBucket.put(w.bucket(), w);
        }
        SortedMap<Integer, Long> out = new TreeMap<>();
        for (Map.Entry<Integer, Long> e : endOffsets.entrySet()) {
            BucketWork w = byBucket.get(e.getKey());
            long end = e.getValue();
            if (w == null) {
                throw new InvalidInputException(
                        "commit of "
                                + plan.path()
                                + " round "
                                + plan.roundId()
                                + " names bucket "
                                + e.getKey()
                                + " which is not part of the round");
            }
            if (w.kind() == BucketWork.Kind.SNAPSHOT) {
                if (end != w.endOffset()) {
                    throw new InvalidInputException(
                            "commit of "
                                    + plan.path()
                                    + " bucket "
                                    + w.bucket()
                                    + ": a snapshot split must end at the snapshot's log offset "
                                    + w.endOffset()
                                    + ", got "
                                    + end);
                }
                out.put(w.bucket(), end);
            } else {
                if (end < w.startOffset() || end > w.endOffset()) {
                    throw new InvalidInputException(
                            "commit of "
                                    + plan.path()
                                    + " bucket "
                                    + w.bucket()
                                    + ": end offset "
                                    + end
                                    + " is outside the round's range ["
                                    + w.startOffset()
                                    + ", "
                                    + w.endOffset()
                                    + "]");
                }
                if (end > w.startOffset()) {
                    out.put(w.bucket(), end);
                }
            }
        }
        return out;
    }
}
