package dev.tributary.client.tiering;

import java.util.List;

/**
 * A request to commit a compaction grant.
 *
 * @param results every compacted bucket's result, serialized by the lake SPI's {@code
 *     LakeCompactionResultSerializer}
 */
public record MaintenanceCommit(MaintenanceAttempt attempt, List<byte[]> results) {
    public MaintenanceCommit {
        results = List.copyOf(results);
    }
}
