package dev.tributary.coordinator.spi;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import java.util.Optional;

/**
 * The lake side of a tiering commit, implemented by the server with the lake plugins. Both methods
 * run on the coordinator's commit pool, never on its event loop, and never concurrently for the
 * same table.
 */
public interface LakeCommitStep {

    /**
     * Commits the round's files atomically to the lake table, with {@link
     * LakeCommitRequest#snapshotProperties()} as the snapshot's properties.
     *
     * @return the new lake snapshot id
     * @throws Exception if the commit failed or its outcome is unknown; the coordinator then fails
     *     the round and reconciles against the lake before the table's next round
     */
    long commit(LakeCommitRequest request) throws Exception;

    /**
     * The newest snapshot of the table's lake table that tiering wrote (one whose properties carry
     * the tiering keys), or empty if there is none or the lake table does not exist.
     */
    Optional<LakeSnapshotRecord> latestTieringSnapshot(
            long tableId, TablePath path, TableDescriptor descriptor) throws Exception;
}
