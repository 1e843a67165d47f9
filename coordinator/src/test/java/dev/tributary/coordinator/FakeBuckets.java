package dev.tributary.coordinator;

import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.coordinator.spi.BucketState;
import dev.tributary.coordinator.spi.BucketStateSource;
import dev.tributary.coordinator.spi.KvSnapshotRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * In-memory bucket end offsets and KV snapshots, moved by the test; partitions of partitioned
 * tables are reported as changed on their next drain after a write, as the store does.
 */
public final class FakeBuckets implements BucketStateSource {
    private final Map<Long, Map<Integer, Long>> ends = new HashMap<>();
    private final Map<Long, Map<Integer, KvSnapshotRef>> snapshots = new HashMap<>();
    private final Map<Long, Map<PartitionBucket, Long>> partitionEnds = new HashMap<>();
    private final Map<Long, Set<Long>> changed = new HashMap<>();
    private final List<Long> partitionReads = new ArrayList<>();

    /** Appends {@code records} to a bucket of a partition. */
    public synchronized void write(long tableId, long partitionId, int bucket, long records) {
        partitionEnds
                .computeIfAbsent(tableId, k -> new HashMap<>())
                .merge(new PartitionBucket(partitionId, bucket), records, Long::sum);
        changed.computeIfAbsent(tableId, k -> new HashSet<>()).add(partitionId);
    }

    public synchronized long end(long tableId, long partitionId, int bucket) {
        return partitionEnds
                .getOrDefault(tableId, Map.of())
                .getOrDefault(new PartitionBucket(partitionId, bucket), 0L);
    }

    /** The partitions whose bucket states were read, in call order. */
    public synchronized List<Long> partitionReads() {
        return List.copyOf(partitionReads);
    }

    public synchronized void clearPartitionReads() {
        partitionReads.clear();
    }

    @Override
    public synchronized List<BucketState> partitionBucketStates(
            long tableId, long partitionId, TablePath path, int bucketCount) {
        partitionReads.add(partitionId);
        List<BucketState> out = new ArrayList<>(bucketCount);
        for (int b = 0; b < bucketCount; b++) {
            out.add(BucketState.log(b, end(tableId, partitionId, b)));
        }
        return out;
    }

    @Override
    public synchronized Set<Long> drainChangedPartitions(long tableId) {
        Set<Long> out = changed.remove(tableId);
        return out == null ? Set.of() : out;
    }

    /** Appends {@code records} to a bucket. */
    public synchronized void write(long tableId, int bucket, long records) {
        ends.computeIfAbsent(tableId, k -> new HashMap<>()).merge(bucket, records, Long::sum);
    }

    public synchronized long end(long tableId, int bucket) {
        return ends.getOrDefault(tableId, Map.of()).getOrDefault(bucket, 0L);
    }

    public synchronized void snapshot(long tableId, int bucket, long snapshotId, long logOffset) {
        snapshots
                .computeIfAbsent(tableId, k -> new HashMap<>())
                .put(bucket, new KvSnapshotRef(snapshotId, logOffset));
    }

    @Override
    public synchronized List<BucketState> bucketStates(
            long tableId, TablePath path, int bucketCount) {
        List<BucketState> out = new ArrayList<>(bucketCount);
        for (int b = 0; b < bucketCount; b++) {
            out.add(
                    new BucketState(
                            b, end(tableId, b), snapshots.getOrDefault(tableId, Map.of()).get(b)));
        }
        return out;
    }
}
