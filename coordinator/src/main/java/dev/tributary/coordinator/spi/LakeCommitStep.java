package dev.tributary.coordinator.spi;

import dev.tributary.common.id.TablePath;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.lake.api.commit.TieredRound;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import java.util.List;
import java.util.Optional;

/**
 * The lake side of tiering, implemented by the server over its one {@code LakeStorage}. Every
 * method runs on the coordinator's lake I/O pool, never on its event loop; the coordinator never
 * runs {@link #commit}, {@link #deleteOrphanFiles} or {@link #latestTieringSnapshot} concurrently
 * for the same table. Write results travel as the bytes of the lake SPI's versioned {@code
 * LakeWriteResultSerializer}, opaque to the coordinator.
 */
public interface LakeCommitStep {

    /**
     * Commits the round's files atomically as one lake snapshot carrying {@code properties} (T4,
     * T21). Idempotent for the same (table id, epoch, round id). Refused, atomically with the
     * commit, when the lake's newest tiering snapshot of the table holds a round newer than {@code
     * base} (see {@code LakeCommitter#commit}).
     *
     * @param base the round the table's record named when this round was planned
     * @return what the lake committed (rows, files and bytes are the lake's own figures)
     * @throws dev.tributary.common.exception.FencedException when the lake holds a newer round:
     *     nothing was committed; the coordinator drops the round and reconciles the table
     * @throws Exception if the commit failed or its outcome is unknown; the coordinator then fails
     *     the round and reconciles against the lake before the table's next round
     */
    LakeCommitResult commit(
            TablePath path,
            List<byte[]> writeResults,
            TieringSnapshotProperties properties,
            TieredRound base)
            throws Exception;

    /**
     * Deletes the files of write results that will never be committed (T23). Files a committed
     * snapshot references are never deleted.
     */
    void abort(TablePath path, List<byte[]> writeResults) throws Exception;

    /**
     * Deletes the files of the table's data location that no snapshot references and {@code policy}
     * lets go (T23).
     *
     * @return the deleted files
     */
    List<String> deleteOrphanFiles(TablePath path, OrphanPolicy policy) throws Exception;

    /**
     * The newest snapshot that tiering of table {@code tableId} wrote, or empty if there is none or
     * the lake table does not exist. Snapshots of other tables that used the same lake table (a
     * dropped table of the same name) are skipped.
     *
     * @throws dev.tributary.common.exception.CorruptDataException when a snapshot carries malformed
     *     tiering properties
     */
    Optional<LakeSnapshot> latestTieringSnapshot(TablePath path, long tableId) throws Exception;
}
