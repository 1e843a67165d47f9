package dev.tributary.tiering.service;

import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.index.LakeRowLocation;
import dev.tributary.tiering.api.Attempt;
import dev.tributary.tiering.api.CommitOutcome;
import dev.tributary.tiering.api.HeartbeatResult;
import dev.tributary.tiering.api.JobSettings;
import dev.tributary.tiering.api.MaintenanceAttempt;
import dev.tributary.tiering.api.MaintenanceCommit;
import dev.tributary.tiering.api.MaintenanceOutcome;
import dev.tributary.tiering.api.RoundCommit;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What the tiering job needs from a Tributary server: the coordinator's job protocol (register,
 * heartbeat, request work, fenced commit, failure report; compaction grants and their commits,
 * T38), KV snapshot leases, and the bucket data to tier. A thin seam over the client's tiering
 * gateway, in the protocol's records ({@code dev.tributary.tiering.api}, shared with the
 * coordinator); {@link GatewayTieringService} is the implementation.
 *
 * <p>Implementations must be thread safe: the enumerator calls the coordinator methods from its own
 * worker threads, and each reader opens cursors from its task thread.
 */
public interface TieringService extends AutoCloseable {

    /**
     * Registers a tiering job; must be called before any other coordinator method.
     *
     * @param parallelism the job's readers, which the coordinator reports and the tiering planner
     *     (T44) simulates
     * @return the settings the coordinator owns and the job follows
     */
    JobSettings register(String jobId, String group, int parallelism);

    /**
     * Tells the coordinator the job is alive and which attempts and compaction grants it still
     * works on. Those the coordinator no longer recognises come back stale, rounds past their
     * freshness come back for force-finish.
     */
    HeartbeatResult heartbeat(
            String jobId, List<Attempt> inFlight, List<MaintenanceAttempt> compactions);

    /**
     * Asks for work: the next pending table's round or, when none is pending and {@code
     * acceptCompaction}, a compaction grant (T38). Waits up to {@code maxWait} (capped by the
     * coordinator at its heartbeat interval) for work to appear, so an idle job gets it the moment
     * it exists instead of on its next poll (T3).
     *
     * @return a result with the plan or the grant, or with neither when nothing appeared in time
     */
    HeartbeatResult requestWork(String jobId, Duration maxWait, boolean acceptCompaction);

    /**
     * Commits a round: the coordinator checks that the attempt is still current and performs the
     * lake commit inside the same critical section (T19). A request with no write results finishes
     * the round without a lake snapshot (T27) but still records offsets that moved; one with
     * nothing at all is reported as finished.
     *
     * @return completes when the coordinator answered; exceptionally for errors other than fencing
     */
    CompletableFuture<CommitOutcome> commit(String jobId, RoundCommit request);

    /**
     * Reports a failed or abandoned round (T22); the coordinator retries the table with backoff and
     * deletes the files of {@code discardedWriteResults} (T23).
     */
    void reportFailed(
            String jobId, Attempt attempt, String reason, List<byte[]> discardedWriteResults);

    /**
     * Commits a compaction grant (T38). Completes with the outcome (committed, gave way to tiering,
     * fenced, failed); exceptionally only when the coordinator could not be reached.
     */
    CompletableFuture<MaintenanceOutcome> commitCompaction(String jobId, MaintenanceCommit commit);

    /**
     * Reports a compaction grant that failed or was abandoned; the coordinator deletes the files of
     * {@code discardedResults} and plans the table again later.
     */
    void reportCompactionFailed(
            String jobId, MaintenanceAttempt attempt, String reason, List<byte[]> discardedResults);

    /**
     * The table's current descriptor, which lake writers need.
     *
     * @throws dev.tributary.common.exception.NotFoundException when no table with this id exists
     *     under this path any more (dropped, or dropped and re-created)
     */
    TableDescriptor describeTable(TablePath tablePath, long tableId);

    /** Takes a lease that keeps a KV snapshot from being deleted while it is read (T9). */
    SnapshotLease acquireSnapshotLease(TableBucket bucket, long snapshotId);

    /**
     * Leases the bucket's newest KV snapshot taken at or past {@code fromOffset} at the bucket's
     * current leader, which takes one now if it has none (T52: a snapshot split whose snapshot went
     * away with its server's leadership starts over on this one). Any such snapshot holds every
     * acknowledged change up to its offset, and nothing unacknowledged.
     */
    GrantedSnapshot acquireNewestSnapshotLease(TableBucket bucket, long fromOffset);

    /** Opens the bucket's log records in {@code [fromOffset, toOffset)}. */
    RecordCursor openLog(TableBucket bucket, long fromOffset, long toOffset);

    /**
     * Opens the rows of a KV snapshot (each one a current row of the bucket's state), consistent at
     * {@code snapshotLogOffset}.
     */
    RecordCursor openSnapshot(TableBucket bucket, long snapshotId, long snapshotLogOffset);

    /**
     * Where the live lake rows of a bucket's keys are in lake snapshot {@code lakeSnapshotId}, from
     * the server's lake row index (T48), for a writer that retracts old rows by position.
     *
     * @param keys each in the lake format's key encoding (see {@link
     *     dev.tributary.lake.api.index.LakeRowLocator})
     * @return per key, in order, its row or null; empty when the table keeps no such index (the
     *     writer then finds the rows in the lake itself)
     */
    default Optional<LakeRowLocation[]> locateLakeRows(
            TableBucket bucket, long lakeSnapshotId, List<byte[]> keys) {
        return Optional.empty();
    }

    @Override
    void close();
}
