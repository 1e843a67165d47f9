package dev.tributary.coordinator.tiering;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.PartitionRegistry;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.spi.BucketState;
import dev.tributary.coordinator.spi.BucketStateSource;
import dev.tributary.coordinator.store.TieringRecord;
import dev.tributary.tiering.api.BucketPlan;
import dev.tributary.tiering.api.RoundPlan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a table's record and its buckets' state into round work, and checks commits against it. A
 * partitioned table's round covers every (partition, bucket) with new data (T32); only the
 * partitions its {@link PartitionTracker} names are read, so a round over 50 written partitions of
 * 1,000 costs about what 50 cost.
 */
final class RoundPlanner {
    private static final Logger LOG = LoggerFactory.getLogger(RoundPlanner.class);

    private final BucketStateSource buckets;
    private final PartitionRegistry partitions;

    RoundPlanner(BucketStateSource buckets, PartitionRegistry partitions) {
        this.buckets = buckets;
        this.partitions = partitions;
    }

    /** The work of a round and the names of the partitions it covers. */
    record Work(List<BucketPlan> buckets, Map<Long, String> partitionNames) {
        boolean isEmpty() {
            return buckets.isEmpty();
        }
    }

    /**
     * The work of a round (T1, T7, T32): one entry per (partition, bucket) with data past its
     * tiered offset; a PK bucket never tiered reads its newest KV snapshot if one exists.
     *
     * @param tracker the table's partition tracker; unused for an unpartitioned table
     */
    Work work(TableInfo table, TieringRecord record, PartitionTracker tracker) {
        int n = table.descriptor().bucketCount();
        if (!table.descriptor().isPartitioned()) {
            List<BucketPlan> work = new ArrayList<>();
            List<BucketState> states = buckets.bucketStates(table.tableId(), table.path(), n);
            addWork(table, record, TableBucket.NO_PARTITION, states, work);
            return new Work(work, Map.of());
        }
        List<Long> ids =
                tracker.candidates(
                        buckets.drainChangedPartitions(table.tableId()),
                        () ->
                                partitions.partitions(table.tableId()).stream()
                                        .map(PartitionInfo::partitionId)
                                        .toList());
        List<BucketPlan> work = new ArrayList<>();
        Map<Long, String> names = new HashMap<>();
        for (long id : ids) {
            Optional<PartitionInfo> p = partitions.byId(table.tableId(), id);
            if (p.isEmpty()) {
                tracker.forget(id);
                continue;
            }
            List<BucketState> states =
                    buckets.partitionBucketStates(table.tableId(), id, table.path(), n);
            if (addWork(table, record, id, states, work)) {
                names.put(id, p.get().name());
            } else {
                tracker.caughtUp(id);
            }
        }
        return new Work(work, names);
    }

    /**
     * @return true when a bucket of the partition has work
     */
    private static boolean addWork(
            TableInfo table,
            TieringRecord record,
            long partitionId,
            List<BucketState> states,
            List<BucketPlan> work) {
        int n = table.descriptor().bucketCount();
        if (states.size() != n) {
            throw new IllegalStateException(
                    "bucket state source returned "
                            + states.size()
                            + " buckets for "
                            + table.path()
                            + (partitionId == TableBucket.NO_PARTITION
                                    ? ""
                                    : " partition " + partitionId)
                            + " which has "
                            + n);
        }
        boolean pk = table.descriptor().hasPrimaryKey();
        boolean any = false;
        for (BucketState s : states) {
            if (!s.known()) {
                // its server's first report after a failover comes with its next heartbeat
                continue;
            }
            long tiered = record.tieredOffset(new PartitionBucket(partitionId, s.bucket()));
            if (tiered < 0) {
                if (pk && s.newestKvSnapshot() != null && s.newestKvSnapshot().logOffset() > 0) {
                    work.add(
                            BucketPlan.snapshot(
                                    partitionId,
                                    s.bucket(),
                                    s.newestKvSnapshot().snapshotId(),
                                    s.newestKvSnapshot().logOffset()));
                    any = true;
                } else if (s.endOffset() > 0) {
                    work.add(BucketPlan.log(partitionId, s.bucket(), 0, s.endOffset()));
                    any = true;
                }
            } else if (s.endOffset() > tiered) {
                work.add(BucketPlan.log(partitionId, s.bucket(), tiered, s.endOffset()));
                any = true;
            } else if (s.endOffset() < tiered) {
                LOG.warn(
                        "bucket {} of {}{} ends at {} below its tiered offset {}; skipping it",
                        s.bucket(),
                        table.path(),
                        partitionId == TableBucket.NO_PARTITION ? "" : " partition " + partitionId,
                        s.endOffset(),
                        tiered);
            }
        }
        return any;
    }

    /**
     * Checks a commit's end offsets against the round plan, so a commit can neither skip data nor
     * claim data past the cutoff.
     *
     * @return the per-(partition, bucket) end offsets to record (buckets that made no progress
     *     dropped)
     * @throws InvalidInputException naming the bucket and the allowed range
     */
    static SortedMap<PartitionBucket, Long> validate(
            RoundPlan plan, Map<PartitionBucket, Long> endOffsets) {
        Map<PartitionBucket, BucketPlan> byBucket = new HashMap<>();
        for (BucketPlan w : plan.buckets()) {
            byBucket.put(w.key(), w);
        }
        SortedMap<PartitionBucket, Long> out = new TreeMap<>();
        for (Map.Entry<PartitionBucket, Long> e : endOffsets.entrySet()) {
            BucketPlan w = byBucket.get(e.getKey());
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
            if (w.kind() == BucketPlan.Kind.SNAPSHOT) {
                // a split whose snapshot went away with its server's leadership read a later one
                // of the new leader's (T52): the bucket's whole state at that offset, so nothing
                // before it is skipped
                if (end < w.endOffset()) {
                    throw new InvalidInputException(
                            "commit of "
                                    + plan.path()
                                    + " bucket "
                                    + w.key()
                                    + ": a snapshot split must end at the snapshot's log offset "
                                    + w.endOffset()
                                    + " or at a later snapshot's, got "
                                    + end);
                }
                out.put(w.key(), end);
            } else {
                if (end < w.startOffset() || end > w.endOffset()) {
                    throw new InvalidInputException(
                            "commit of "
                                    + plan.path()
                                    + " bucket "
                                    + w.key()
                                    + ": end offset "
                                    + end
                                    + " is outside the round's range ["
                                    + w.startOffset()
                                    + ", "
                                    + w.endOffset()
                                    + "]");
                }
                if (end > w.startOffset()) {
                    out.put(w.key(), end);
                }
            }
        }
        return out;
    }
}
