package dev.tributary.lake.api.commit;

import dev.tributary.lake.api.write.LakeWriteResult;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Commits the write results of tiering rounds to one lake table, and answers what tiering last
 * committed there. Not thread safe: one thread at a time per table (commits of one table are
 * serialized anyway, T24).
 */
public interface LakeCommitter extends AutoCloseable {

    /** The commit user Tributary's tiering snapshots carry unless the caller says otherwise. */
    String DEFAULT_COMMIT_USER = "__tributary_tiering";

    /**
     * Commits every file of {@code results} as ONE lake snapshot (a reader sees all of the round or
     * none of it, T4) whose properties carry {@code properties} (T21).
     *
     * <p>Empty rounds: when {@code results} is empty or every result {@link
     * LakeWriteResult#isEmpty() is empty}, nothing is written to the lake and the result is {@link
     * LakeCommitResult.Outcome#NOTHING_TO_COMMIT} (T27). The lake's latest tiering snapshot then
     * still carries the previous round's offsets; the caller records the new offsets itself.
     *
     * <p>Retries: the commit is idempotent. When the latest tiering snapshot already carries the
     * same table id, epoch and round id, nothing is committed and the result is {@link
     * LakeCommitResult.Outcome#ALREADY_COMMITTED} with that snapshot's id, so a retried commit (for
     * example after a timeout whose commit did land) never duplicates data.
     *
     * @param results the results of one round of this table; each must carry the table id, epoch
     *     and round id of {@code properties} (the caller drops stale ones first, T20)
     * @throws dev.tributary.common.exception.InvalidInputException when a result belongs to another
     *     table, format or round
     * @throws dev.tributary.lake.api.catalog.LakeTableMismatchException when the lake table was
     *     changed outside Tributary so the files no longer fit
     * @throws dev.tributary.common.exception.RetriableException when the lake rejected the commit
     *     because of a concurrent change; committing the same results again is safe
     * @throws dev.tributary.common.exception.StorageException on other failures
     */
    LakeCommitResult commit(List<LakeWriteResult> results, TieringSnapshotProperties properties);

    /**
     * Deletes the files of results that will never be committed (a failed or fenced round). Files
     * that a committed snapshot references are never deleted, so aborting results of a round that
     * did commit is harmless. Best effort: files already gone are skipped.
     */
    void abort(List<LakeWriteResult> results);

    /**
     * The newest snapshot that carries Tributary tiering properties, or empty when tiering never
     * committed to this table (or its snapshots expired). Used to reconcile the coordinator's
     * record with the lake after a crash between the two (T21).
     */
    Optional<LakeSnapshot> latestTieringSnapshot();

    /**
     * Files under the table's data location that no live snapshot references and whose modification
     * time is before {@code olderThan} (T23). Pass {@code now - grace period} so that files of
     * rounds still being written or committed are never listed.
     *
     * @return absolute paths/URIs, sorted
     */
    List<String> listOrphanFiles(Instant olderThan);

    /**
     * Deletes what {@link #listOrphanFiles(Instant)} lists.
     *
     * @return the deleted files, sorted
     */
    List<String> deleteOrphanFiles(Instant olderThan);

    @Override
    void close();
}
