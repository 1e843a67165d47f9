package dev.tributary.coordinator.tiering;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which partitions of one partitioned table a round has to look at (T32): those the store reported
 * as written since they were last seen caught up, and those a round has seen behind and that no
 * round has seen caught up since. A partition is dropped from the set only when a plan saw every
 * one of its buckets tiered to its end offset, so a partition with data never goes unplanned; the
 * store's report covers writes that land after that. After a start every partition is a candidate
 * once. Event-loop thread only.
 */
final class PartitionTracker {
    private final Set<Long> behind = new HashSet<>();
    private boolean seeded;

    /**
     * Partitions to look at now: {@code changed} plus those known to be behind.
     *
     * @param allPartitions every partition of the table, asked for only on the first call (until
     *     then nothing is known to be tiered); later plans cost what the active partitions cost
     */
    List<Long> candidates(
            Collection<Long> changed, java.util.function.Supplier<Collection<Long>> allPartitions) {
        if (!seeded) {
            behind.addAll(allPartitions.get());
            seeded = true;
        }
        behind.addAll(changed);
        return behind.stream().sorted().toList();
    }

    /** A plan saw the partition with nothing left to tier. */
    void caughtUp(long partitionId) {
        behind.remove(partitionId);
    }

    /** The partition is gone. */
    void forget(long partitionId) {
        behind.remove(partitionId);
    }

    /** Partitions known to have data not yet tiered (as of the last plan or store report). */
    Set<Long> behind() {
        return behind;
    }
}
