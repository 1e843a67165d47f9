package dev.tributary.lake.api.commit;

import java.util.Objects;

/**
 * A lake snapshot written by tiering.
 *
 * @param snapshotId the format's snapshot id (Paimon: increasing; Iceberg: random, compare by time
 *     or by the properties' epoch/round, never by id)
 * @param committedAtMillis when the lake committed it, epoch millis (the lake's clock)
 * @param properties the tiering properties it carries
 */
public record LakeSnapshot(
        long snapshotId, long committedAtMillis, TieringSnapshotProperties properties) {
    public LakeSnapshot {
        Objects.requireNonNull(properties, "properties");
    }
}
