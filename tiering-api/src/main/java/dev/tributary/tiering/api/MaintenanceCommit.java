package dev.tributary.tiering.api;

import java.util.List;
import java.util.Objects;

/**
 * A job's request to commit a compaction grant (T38).
 *
 * @param jobId the job
 * @param attempt the grant
 * @param results every compacted bucket's result, each serialized by the lake SPI's versioned
 *     {@code LakeCompactionResultSerializer}; opaque to the coordinator
 */
public record MaintenanceCommit(String jobId, MaintenanceAttempt attempt, List<byte[]> results) {
    public MaintenanceCommit {
        Objects.requireNonNull(attempt, "attempt");
        results = List.copyOf(results);
    }
}
