package dev.tributary.coordinator.spi;

import java.util.Map;

/**
 * A lake snapshot written by tiering, as read back for reconciliation (T21).
 *
 * @param snapshotId the lake's snapshot id
 * @param properties the snapshot's properties (the ones passed in {@link
 *     LakeCommitRequest#snapshotProperties()})
 */
public record LakeSnapshotRecord(long snapshotId, Map<String, String> properties) {
    public LakeSnapshotRecord {
        properties = Map.copyOf(properties);
    }
}
