package dev.tributary.lake.api.read;

import dev.tributary.lake.api.commit.LakeSnapshot;
import java.util.Optional;

/**
 * Reads a lake table as of a tiering snapshot with the format's own reader: the lake half of a
 * union read (T40). A tiering snapshot's per-bucket offsets are the seam: the snapshot holds every
 * record of bucket b below {@code bucketOffsets().get(b)} and none from it, so a reader that takes
 * snapshot S, reads the lake as of S and the store's log from S's offsets sees every record exactly
 * once, however many rounds commit meanwhile.
 *
 * <pre>{@code
 * try (LakeReader reader = lake.createReader(path)) {
 *     LakeSnapshot s = reader.latestTieringSnapshot(tableId).orElseThrow();
 *     try (LakeRowCursor rows = reader.read(LakeReadRequest.all(s.snapshotId(), descriptor, 0))) {
 *         while (rows.next()) { ... rows.row() ... rows.offset() ... }
 *     }
 * }
 * }</pre>
 *
 * <p>Thread safe: several threads may read several buckets at once; each cursor is used by one
 * thread.
 *
 * @since 0.1
 */
public interface LakeReader extends AutoCloseable {

    /**
     * The newest snapshot that tiering of Tributary table {@code tableId} committed and in which
     * readers see that round's rows, or empty when the table was never tiered. Usually the same
     * answer as {@link dev.tributary.lake.api.commit.LakeCommitter#latestTieringSnapshot(long)};
     * not while a round that a format commits as several snapshots is halfway in (Paimon with
     * deletion vectors: the round's files at level 0, which readers skip, then their compaction):
     * then the round before it. Maintenance snapshots (compaction, expiry) carry no tiering
     * properties and are skipped; reading as of the returned snapshot still sees the table's rows
     * as that round left them.
     */
    Optional<LakeSnapshot> latestTieringSnapshot(long tableId);

    /**
     * Reads one bucket as of one snapshot.
     *
     * @throws dev.tributary.common.exception.NotFoundException when the lake table or the snapshot
     *     no longer exists (expired): take the latest tiering snapshot again
     * @throws dev.tributary.common.exception.InvalidInputException when the filter reads a column
     *     that is neither requested nor a system column, or compares with a literal of the wrong
     *     class
     * @throws dev.tributary.common.exception.StorageException when reading files fails
     */
    LakeRowCursor read(LakeReadRequest request);

    @Override
    void close();
}
