package dev.tributary.coordinator.store;

import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TableBucket;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.LongPredicate;

/**
 * A table's tiered offsets: per (partition, bucket), the exclusive end offset already in the lake
 * (T12, T21, T32). An unpartitioned table's buckets are under {@link TableBucket#NO_PARTITION}.
 * Immutable; an update shares every partition it does not touch with the original, so a round over
 * 50 of 1,000 partitions copies 50 small maps, not 1,000 (the per-round cost the benchmark
 * bounds).
 */
public final class TieredOffsets {
    /** No bucket was ever tiered. */
    public static final TieredOffsets EMPTY = new TieredOffsets(Map.of());

    private final Map<Long, SortedMap<Integer, Long>> partitions;

    private TieredOffsets(Map<Long, SortedMap<Integer, Long>> partitions) {
        this.partitions = partitions;
    }

    /** The offsets of an unpartitioned table. */
    public static TieredOffsets ofBuckets(Map<Integer, Long> buckets) {
        return buckets.isEmpty()
                ? EMPTY
                : EMPTY.with(TableBucket.NO_PARTITION, new TreeMap<>(buckets));
    }

    /** The offsets of every (partition, bucket) in {@code offsets}. */
    public static TieredOffsets of(Map<PartitionBucket, Long> offsets) {
        return EMPTY.merge(offsets);
    }

    /** The tiered offset of a bucket, or -1 if it was never tiered. */
    public long get(PartitionBucket bucket) {
        SortedMap<Integer, Long> p = partitions.get(bucket.partitionId());
        Long o = p == null ? null : p.get(bucket.bucket());
        return o == null ? -1 : o;
    }

    /**
     * The buckets of one partition ({@link TableBucket#NO_PARTITION}: unpartitioned) that were
     * tiered.
     */
    public SortedMap<Integer, Long> partition(long partitionId) {
        SortedMap<Integer, Long> p = partitions.get(partitionId);
        return p == null ? Collections.emptySortedMap() : p;
    }

    /** Ids of the partitions with a tiered bucket. */
    public Set<Long> partitionIds() {
        return Collections.unmodifiableSet(partitions.keySet());
    }

    public boolean isEmpty() {
        return partitions.isEmpty();
    }

    /** Number of (partition, bucket) entries. */
    public int size() {
        int n = 0;
        for (SortedMap<Integer, Long> p : partitions.values()) {
            n += p.size();
        }
        return n;
    }

    /** These offsets with {@code updates} applied (each replaces the bucket's offset). */
    public TieredOffsets merge(Map<PartitionBucket, Long> updates) {
        if (updates.isEmpty()) {
            return this;
        }
        Map<Long, SortedMap<Integer, Long>> changed = new HashMap<>();
        for (Map.Entry<PartitionBucket, Long> e : updates.entrySet()) {
            long pid = e.getKey().partitionId();
            changed.computeIfAbsent(pid, id -> new TreeMap<>(partition(id)))
                    .put(e.getKey().bucket(), e.getValue());
        }
        Map<Long, SortedMap<Integer, Long>> next = new HashMap<>(partitions);
        changed.forEach((id, p) -> next.put(id, Collections.unmodifiableSortedMap(p)));
        return new TieredOffsets(Collections.unmodifiableMap(next));
    }

    /** These offsets without one partition (removed from the table, T33). */
    public TieredOffsets withoutPartition(long partitionId) {
        if (!partitions.containsKey(partitionId)) {
            return this;
        }
        Map<Long, SortedMap<Integer, Long>> next = new HashMap<>(partitions);
        next.remove(partitionId);
        return new TieredOffsets(Collections.unmodifiableMap(next));
    }

    /** Only the partitions {@code keep} accepts. */
    public TieredOffsets retainPartitions(LongPredicate keep) {
        Map<Long, SortedMap<Integer, Long>> next = new HashMap<>();
        partitions.forEach(
                (id, p) -> {
                    if (keep.test(id)) {
                        next.put(id, p);
                    }
                });
        return next.size() == partitions.size()
                ? this
                : new TieredOffsets(Collections.unmodifiableMap(next));
    }

    /**
     * True when partition {@code partitionId} is the very same object in both (an update left it
     * alone), so a writer of deltas can skip it.
     */
    public boolean sameVersionOf(long partitionId, TieredOffsets other) {
        return partitions.get(partitionId) == other.partitions.get(partitionId);
    }

    /** Every entry, sorted by partition then bucket. */
    public SortedMap<PartitionBucket, Long> asSortedMap() {
        SortedMap<PartitionBucket, Long> out = new TreeMap<>();
        partitions.forEach((id, p) -> p.forEach((b, o) -> out.put(new PartitionBucket(id, b), o)));
        return out;
    }

    private TieredOffsets with(long partitionId, SortedMap<Integer, Long> buckets) {
        Map<Long, SortedMap<Integer, Long>> next = new HashMap<>(partitions);
        next.put(partitionId, Collections.unmodifiableSortedMap(new TreeMap<>(buckets)));
        return new TieredOffsets(Collections.unmodifiableMap(next));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TieredOffsets t && t.partitions.equals(partitions);
    }

    @Override
    public int hashCode() {
        return partitions.hashCode();
    }

    @Override
    public String toString() {
        return asSortedMap().toString();
    }
}
