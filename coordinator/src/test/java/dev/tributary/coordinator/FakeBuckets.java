package dev.tributary.coordinator;

import dev.tributary.common.id.TablePath;
import dev.tributary.coordinator.spi.BucketState;
import dev.tributary.coordinator.spi.BucketStateSource;
import dev.tributary.coordinator.spi.KvSnapshotRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** In-memory bucket end offsets and KV snapshots, moved by the test. */
public final class FakeBuckets implements BucketStateSource {
    private final Map<Long, Map<Integer, Long>> ends = new HashMap<>();
    private final Map<Long, Map<Integer, KvSnapshotRef>> snapshots = new HashMap<>();

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
