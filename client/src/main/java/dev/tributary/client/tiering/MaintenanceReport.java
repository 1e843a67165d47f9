package dev.tributary.client.tiering;

import java.util.List;
import java.util.Objects;

/**
 * A compaction grant that failed or was abandoned in the job.
 *
 * @param discardedResults results of buckets that had finished; the coordinator deletes their files
 */
public record MaintenanceReport(
        MaintenanceAttempt attempt, String reason, List<byte[]> discardedResults) {
    public MaintenanceReport {
        Objects.requireNonNull(attempt, "attempt");
        discardedResults = List.copyOf(discardedResults);
    }
}
