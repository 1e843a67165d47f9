package dev.tributary.coordinator.maintenance;

import java.util.List;

/**
 * A job's request to commit a compaction grant.
 *
 * @param jobId the job
 * @param attempt the grant
 * @param results every bucket's compaction result, each serialized by the lake SPI's versioned
 *     {@code LakeCompactionResultSerializer}; opaque to the coordinator
 */
public record MaintenanceCommitRequest(
        String jobId, MaintenanceAttempt attempt, List<byte[]> results) {
    public MaintenanceCommitRequest {
        results = List.copyOf(results);
    }
}
