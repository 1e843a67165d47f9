package dev.tributary.tiering.service;

import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What the tiering job needs from a Tributary server: the coordinator's job protocol (register,
 * heartbeat, request a table, fenced commit, failure report), KV snapshot leases, and the bucket
 * data to tier. The job is written against this interface only, so its logic is testable without a
 * server; {@code GatewayTieringService} implements it over the client's tiering gateway.
 *
 * <p>Implementations must be thread safe: the enumerator calls the coordinator methods from its own
 * worker threads, and each reader opens cursors from its task thread.
 */
public interface TieringService extends AutoCloseable {

    /** Registers a tiering job; must be called before any other coordinator method. */
    void register(String jobId, String group);

    /**
     * Tells the coordinator the job is alive and which (table, epoch) attempts it still works on.
     * Tables whose attempt the coordinator no longer recognises are returned so the job can drop
     * them early (their commits would be fenced anyway).
     */
    HeartbeatResponse heartbeat(String jobId, List<InFlightTable> inFlight);

    /**
     * Asks for the next pending table. Waits up to {@code maxWait} for one to become pending, so an
     * idle job gets work the moment it exists instead of on its next poll (T3).
     *
     * @return the round plan, or empty when no table became pending within {@code maxWait}
     */
    Optional<RoundPlan> requestTable(String jobId, Duration maxWait);

    /**
     * Commits a round: the coordinator checks that (table, epoch) is still the current attempt and
     * performs the lake commit inside the same critical section (T19). A request with no write
     * results finishes the round without a lake snapshot (T27) but still records offsets that
     * moved.
     */
    CommitOutcome commit(String jobId, CommitRequest request);

    /** Reports a failed round attempt (T22); the coordinator retries the table with backoff. */
    void reportFailed(String jobId, long tableId, long epoch, String reason);

    /**
     * The table's current descriptor, which lake writers need.
     *
     * @throws dev.tributary.common.exception.NotFoundException when no table with this id exists
     *     under this path any more (dropped, or dropped and re-created)
     */
    TableDescriptor describeTable(TablePath tablePath, long tableId);

    /** Takes a lease that keeps a KV snapshot from being deleted while it is read (T9). */
    SnapshotLease acquireSnapshotLease(TableBucket bucket, long snapshotId, Duration ttl);

    /** Opens the bucket's log records in {@code [fromOffset, toOffset)}. */
    RecordCursor openLog(TableBucket bucket, long fromOffset, long toOffset);

    /** Opens the rows of a KV snapshot (each one a current row of the bucket's state). */
    RecordCursor openSnapshot(TableBucket bucket, long snapshotId);

    @Override
    void close();
}
