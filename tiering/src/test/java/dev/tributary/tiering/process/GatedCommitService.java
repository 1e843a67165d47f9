package dev.tributary.tiering.process;

import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.tiering.service.CommitOutcome;
import dev.tributary.tiering.service.CommitRequest;
import dev.tributary.tiering.service.HeartbeatResponse;
import dev.tributary.tiering.service.InFlightTable;
import dev.tributary.tiering.service.RecordCursor;
import dev.tributary.tiering.service.RoundPlan;
import dev.tributary.tiering.service.SnapshotLease;
import dev.tributary.tiering.service.TieringService;
import dev.tributary.tiering.service.TieringServiceFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The real gateway service, except that a commit request with lake files waits until a gate file
 * exists. It lets a test freeze a job at the one point that matters for fencing, after the round
 * was read and written but before its commit reaches the coordinator, and print what happened to
 * the commit. Heartbeats are untouched, so the coordinator sees a healthy job until the test pauses
 * the process. Rounds without files (nothing read before a force-finish) are only reports and pass
 * straight through.
 */
final class GatedCommitService implements TieringService {
    static final String HELD = "GATE-HELD";
    static final String OUTCOME = "COMMIT-OUTCOME";

    private final TieringService delegate;
    private final Path gate;

    GatedCommitService(TieringService delegate, Path gate) {
        this.delegate = delegate;
        this.gate = gate;
    }

    /** Shipped with the job graph like the factory it wraps. */
    record Factory(TieringServiceFactory inner, String gate) implements TieringServiceFactory {
        @Override
        public TieringService create() {
            return new GatedCommitService(inner.create(), Path.of(gate));
        }
    }

    @Override
    public CommitOutcome commit(String jobId, CommitRequest r) {
        if (r.isEmpty()) {
            return delegate.commit(jobId, r);
        }
        String attempt = "table=" + r.tableId() + " epoch=" + r.epoch() + " round=" + r.roundId();
        print(HELD + " " + attempt + " results=" + r.writeResults().size());
        while (!Files.exists(gate)) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            if (Thread.currentThread().isInterrupted()) {
                throw new IllegalStateException("job stopped while its commit was held");
            }
        }
        CommitOutcome outcome;
        try {
            outcome = delegate.commit(jobId, r);
        } catch (RuntimeException e) {
            print(OUTCOME + " " + attempt + " outcome=ERROR " + e);
            throw e;
        }
        print(OUTCOME + " " + attempt + " outcome=" + outcome);
        return outcome;
    }

    private static void print(String line) {
        System.out.println(line);
        System.out.flush();
    }

    @Override
    public void register(String jobId, String group) {
        delegate.register(jobId, group);
    }

    @Override
    public HeartbeatResponse heartbeat(String jobId, List<InFlightTable> inFlight) {
        return delegate.heartbeat(jobId, inFlight);
    }

    @Override
    public Optional<RoundPlan> requestTable(String jobId, Duration maxWait) {
        return delegate.requestTable(jobId, maxWait);
    }

    @Override
    public void reportFailed(String jobId, long tableId, long epoch, String reason) {
        delegate.reportFailed(jobId, tableId, epoch, reason);
    }

    @Override
    public TableDescriptor describeTable(TablePath tablePath, long tableId) {
        return delegate.describeTable(tablePath, tableId);
    }

    @Override
    public SnapshotLease acquireSnapshotLease(TableBucket bucket, long snapshotId, Duration ttl) {
        return delegate.acquireSnapshotLease(bucket, snapshotId, ttl);
    }

    @Override
    public RecordCursor openLog(TableBucket bucket, long fromOffset, long toOffset) {
        return delegate.openLog(bucket, fromOffset, toOffset);
    }

    @Override
    public RecordCursor openSnapshot(TableBucket bucket, long snapshotId) {
        return delegate.openSnapshot(bucket, snapshotId);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
