package dev.tributary.tiering.process;

import dev.tributary.common.id.PartitionBucket;
import dev.tributary.tiering.api.CommitOutcome;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.service.TieringService;
import dev.tributary.tiering.service.TieringServiceFactory;
import dev.tributary.tiering.testutil.ForwardingTieringService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The real gateway service, except that a commit request with lake files waits until a gate file
 * exists. It lets a test freeze a job at the one point that matters for fencing, after the round
 * was read and written but before its commit reaches the coordinator, and print what happened to
 * the commit. Heartbeats are untouched, so the coordinator sees a healthy job until the test pauses
 * the process. Rounds without files (nothing read before a force-finish) pass straight through.
 */
final class GatedCommitService extends ForwardingTieringService {
    static final String HELD = "GATE-HELD";
    static final String OUTCOME = "COMMIT-OUTCOME";

    private final Path gate;

    GatedCommitService(TieringService delegate, Path gate) {
        super(delegate);
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
    public CompletableFuture<CommitOutcome> commit(String jobId, RoundCommit r) {
        if (r.writeResults().isEmpty()) {
            return delegate.commit(jobId, r);
        }
        String attempt = "table=" + r.tableId() + " epoch=" + r.epoch() + " round=" + r.roundId();
        print(
                HELD
                        + " "
                        + attempt
                        + " results="
                        + r.writeResults().size()
                        + " partitions="
                        + r.bucketEndOffsets().keySet().stream()
                                .mapToLong(PartitionBucket::partitionId)
                                .distinct()
                                .count());
        while (!Files.exists(gate)) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            if (Thread.currentThread().isInterrupted()) {
                throw new IllegalStateException("job stopped while its commit was held");
            }
        }
        return delegate.commit(jobId, r)
                .whenComplete(
                        (outcome, e) ->
                                print(
                                        OUTCOME
                                                + " "
                                                + attempt
                                                + " outcome="
                                                + (e == null ? outcome : "ERROR " + e)));
    }

    private static void print(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
