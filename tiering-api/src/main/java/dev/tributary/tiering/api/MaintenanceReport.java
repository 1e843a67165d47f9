package dev.tributary.tiering.api;

import java.util.List;
import java.util.Objects;

/**
 * A job's report that a compaction failed or was abandoned before its commit.
 *
 * @param attempt the grant
 * @param reason why
 * @param discardedResults compaction results of buckets that had finished; their files are deleted
 */
public record MaintenanceReport(
        MaintenanceAttempt attempt, String reason, List<byte[]> discardedResults) {
    public MaintenanceReport {
        Objects.requireNonNull(attempt, "attempt");
        discardedResults = List.copyOf(discardedResults);
    }
}
