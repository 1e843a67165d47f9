package dev.tributary.lake.api.commit;

import dev.tributary.lake.api.write.LakeWriteResult;
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
     * <p>Fence: the commit is refused when the table's newest tiering snapshot holds a round newer
     * than {@code base}, checked atomically with the commit, so a coordinator that lost its role
     * during a long pause cannot land a round its successor tiers again, nor the successor one the
     * late commit landed first (T19, T49). The same round already committed is not a refusal (see
     * retries).
     *
     * @param results the results of one round of this table; each must carry the table id, epoch
     *     and round id of {@code properties} (the caller drops stale ones first, T20)
     * @param base the round the coordinator's record named when it planned this round
     * @throws dev.tributary.common.exception.FencedException when the lake holds a tiering round
     *     newer than {@code base}: nothing was committed; the caller drops the round and reconciles
     *     the table with the lake (T21)
     * @throws dev.tributary.common.exception.InvalidInputException when a result belongs to another
     *     table, format or round
     * @throws dev.tributary.lake.api.catalog.LakeTableMismatchException when the lake table was
     *     changed outside Tributary so the files no longer fit
     * @throws dev.tributary.common.exception.RetriableException when the lake rejected the commit
     *     because of a concurrent change; committing the same results again is safe
     * @throws dev.tributary.common.exception.StorageException on other failures
     */
    LakeCommitResult commit(
            List<LakeWriteResult> results, TieringSnapshotProperties properties, TieredRound base);

    /**
     * {@link #commit(List, TieringSnapshotProperties, TieredRound)} built on the round the table's
     * newest tiering snapshot holds now: for callers that keep no record of their own (tools,
     * tests). The fence then covers only tiering commits that land during this call.
     */
    default LakeCommitResult commit(
            List<LakeWriteResult> results, TieringSnapshotProperties properties) {
        TieredRound base =
                latestTieringSnapshot(properties.tableId())
                        .map(TieredRound::of)
                        .orElse(TieredRound.NONE);
        return commit(results, properties, base);
    }

    /**
     * Deletes the files of results that will never be committed (a failed or fenced round, T23).
     * Results of the round that the table's latest tiering snapshot holds are skipped, so aborting
     * what a retried commit already committed is harmless; results of older committed rounds are
     * NOT recognised: pass only results of attempts that never committed. Best effort: files
     * already gone are skipped.
     */
    void abort(List<LakeWriteResult> results);

    /**
     * The newest snapshot that carries Tributary tiering properties, or empty when tiering never
     * committed to this table (or its snapshots expired). Used to reconcile the coordinator's
     * record with the lake after a crash between the two (T21).
     */
    Optional<LakeSnapshot> latestTieringSnapshot();

    /**
     * The newest snapshot that tiering of Tributary table {@code tableId} committed, skipping
     * snapshots of other tables that used the same lake table earlier (a dropped table of the same
     * name whose lake table was kept).
     *
     * @throws dev.tributary.common.exception.CorruptDataException when a snapshot on the way
     *     carries malformed tiering properties
     */
    Optional<LakeSnapshot> latestTieringSnapshot(long tableId);

    /**
     * Files under the table's data location that no live snapshot references and that {@code
     * policy} deems deletable (T23).
     *
     * @return absolute paths/URIs, sorted
     */
    List<String> listOrphanFiles(OrphanPolicy policy);

    /**
     * Deletes what {@link #listOrphanFiles(OrphanPolicy)} lists. Call it only while no tiering
     * commit of this table runs (files of the committing attempt are not yet referenced).
     *
     * @return the deleted files, sorted
     */
    List<String> deleteOrphanFiles(OrphanPolicy policy);

    @Override
    void close();
}
