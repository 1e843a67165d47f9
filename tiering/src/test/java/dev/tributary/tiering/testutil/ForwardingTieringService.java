package dev.tributary.tiering.testutil;

import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.tiering.api.Attempt;
import dev.tributary.tiering.api.CommitOutcome;
import dev.tributary.tiering.api.HeartbeatResult;
import dev.tributary.tiering.api.JobSettings;
import dev.tributary.tiering.api.MaintenanceAttempt;
import dev.tributary.tiering.api.MaintenanceCommit;
import dev.tributary.tiering.api.MaintenanceOutcome;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.service.GrantedSnapshot;
import dev.tributary.tiering.service.RecordCursor;
import dev.tributary.tiering.service.SnapshotLease;
import dev.tributary.tiering.service.TieringService;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Forwards every call to the real service; tests override the one call they slow down, hold or
 * fail. Such a decorator never does more than production: it only delays or refuses.
 */
public abstract class ForwardingTieringService implements TieringService {
    protected final TieringService delegate;

    protected ForwardingTieringService(TieringService delegate) {
        this.delegate = delegate;
    }

    @Override
    public JobSettings register(String jobId, String group, int parallelism) {
        return delegate.register(jobId, group, parallelism);
    }

    @Override
    public HeartbeatResult heartbeat(
            String jobId, List<Attempt> inFlight, List<MaintenanceAttempt> compactions) {
        return delegate.heartbeat(jobId, inFlight, compactions);
    }

    @Override
    public HeartbeatResult requestWork(String jobId, Duration maxWait, boolean acceptCompaction) {
        return delegate.requestWork(jobId, maxWait, acceptCompaction);
    }

    @Override
    public CompletableFuture<MaintenanceOutcome> commitCompaction(
            String jobId, MaintenanceCommit commit) {
        return delegate.commitCompaction(jobId, commit);
    }

    @Override
    public void reportCompactionFailed(
            String jobId, MaintenanceAttempt attempt, String reason, List<byte[]> discarded) {
        delegate.reportCompactionFailed(jobId, attempt, reason, discarded);
    }

    @Override
    public CompletableFuture<CommitOutcome> commit(String jobId, RoundCommit request) {
        return delegate.commit(jobId, request);
    }

    @Override
    public void reportFailed(String jobId, Attempt attempt, String reason, List<byte[]> discarded) {
        delegate.reportFailed(jobId, attempt, reason, discarded);
    }

    @Override
    public TableDescriptor describeTable(TablePath tablePath, long tableId) {
        return delegate.describeTable(tablePath, tableId);
    }

    @Override
    public SnapshotLease acquireSnapshotLease(TableBucket bucket, long snapshotId) {
        return delegate.acquireSnapshotLease(bucket, snapshotId);
    }

    @Override
    public GrantedSnapshot acquireNewestSnapshotLease(TableBucket bucket, long fromOffset) {
        return delegate.acquireNewestSnapshotLease(bucket, fromOffset);
    }

    @Override
    public RecordCursor openLog(TableBucket bucket, long fromOffset, long toOffset) {
        return delegate.openLog(bucket, fromOffset, toOffset);
    }

    @Override
    public RecordCursor openSnapshot(TableBucket bucket, long snapshotId, long logOffset) {
        return delegate.openSnapshot(bucket, snapshotId, logOffset);
    }

    @Override
    public java.util.Optional<dev.tributary.lake.api.index.LakeRowLocation[]> locateLakeRows(
            TableBucket bucket, long lakeSnapshotId, java.util.List<byte[]> keys) {
        return delegate.locateLakeRows(bucket, lakeSnapshotId, keys);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
