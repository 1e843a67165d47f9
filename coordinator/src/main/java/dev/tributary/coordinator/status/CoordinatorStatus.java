package dev.tributary.coordinator.status;

import java.util.List;

/**
 * A consistent snapshot of the tiering coordinator (T28).
 *
 * @param timeMillis wall time of the snapshot
 * @param tables every lake-enabled table
 * @param jobs every registered job
 * @param pendingCount tables pending over all groups
 * @param tieringCount tables being tiered
 */
public record CoordinatorStatus(
        long timeMillis,
        List<TableTieringStatus> tables,
        List<JobStatus> jobs,
        int pendingCount,
        int tieringCount) {
    public CoordinatorStatus {
        tables = List.copyOf(tables);
        jobs = List.copyOf(jobs);
    }
}
