package dev.tributary.tiering.testutil;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.tiering.api.CommitOutcome;
import dev.tributary.tiering.api.MaintenanceCommit;
import dev.tributary.tiering.api.MaintenanceOutcome;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.service.TieringService;
import dev.tributary.tiering.service.TieringServiceFactory;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Seeded random pauses in the real job's calls, so compaction and tiering interleave differently
 * per seed: before a compaction starts (its table description), before a compaction commit is sent
 * (its base snapshot goes stale meanwhile) and before a round's commit. It only delays; every call
 * reaches the real service unchanged. Controlled by name, since the job's factory is serialized
 * into the job graph.
 */
public final class SeededTiming {
    private static final Map<String, SeededTiming> REGISTRY = new ConcurrentHashMap<>();

    private final String name;
    private final Random random;
    private final int maxCompactionStartMillis;
    private final int maxCompactionCommitMillis;
    private final int maxRoundCommitMillis;

    public SeededTiming(
            String name,
            long seed,
            int maxCompactionStartMillis,
            int maxCompactionCommitMillis,
            int maxRoundCommitMillis) {
        this.name = name;
        this.random = new Random(seed);
        this.maxCompactionStartMillis = maxCompactionStartMillis;
        this.maxCompactionCommitMillis = maxCompactionCommitMillis;
        this.maxRoundCommitMillis = maxRoundCommitMillis;
        REGISTRY.put(name, this);
    }

    public void unregister() {
        REGISTRY.remove(name);
    }

    public TieringServiceFactory wrap(TieringServiceFactory inner) {
        return new Factory(inner, name);
    }

    private void pause(int maxMillis) {
        int millis;
        synchronized (random) {
            millis = maxMillis <= 0 ? 0 : random.nextInt(maxMillis + 1);
        }
        if (millis > 0) {
            LockSupport.parkNanos(millis * 1_000_000L);
        }
    }

    private record Factory(TieringServiceFactory inner, String name)
            implements TieringServiceFactory {
        @Override
        public TieringService create() {
            SeededTiming timing = REGISTRY.get(name);
            if (timing == null) {
                throw new IllegalStateException("no timing registered as " + name);
            }
            return timing.new Service(inner.create());
        }
    }

    private final class Service extends ForwardingTieringService {
        Service(TieringService delegate) {
            super(delegate);
        }

        @Override
        public TableDescriptor describeTable(TablePath tablePath, long tableId) {
            // readers describe a table when a compaction (or a round's first split) starts
            pause(maxCompactionStartMillis);
            return delegate.describeTable(tablePath, tableId);
        }

        @Override
        public CompletableFuture<MaintenanceOutcome> commitCompaction(
                String jobId, MaintenanceCommit commit) {
            pause(maxCompactionCommitMillis);
            return delegate.commitCompaction(jobId, commit);
        }

        @Override
        public CompletableFuture<CommitOutcome> commit(String jobId, RoundCommit request) {
            pause(maxRoundCommitMillis);
            return delegate.commit(jobId, request);
        }
    }
}
