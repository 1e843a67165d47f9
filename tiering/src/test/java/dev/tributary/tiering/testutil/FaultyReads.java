package dev.tributary.tiering.testutil;

import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.EncodedRow;
import dev.tributary.tiering.api.CommitOutcome;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.service.GrantedSnapshot;
import dev.tributary.tiering.service.RecordCursor;
import dev.tributary.tiering.service.SnapshotLease;
import dev.tributary.tiering.service.TieringService;
import dev.tributary.tiering.service.TieringServiceFactory;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Faults for a job on a MiniCluster in the test JVM: reads slowed down or failed, commit calls
 * failed before they reach the coordinator (a lost connection), and KV snapshot leases counted. The
 * service it wraps is the real gateway service; this only delays or refuses. Controlled by name,
 * since the job's factory is serialized into the job graph.
 */
public final class FaultyReads {
    private static final Map<String, FaultyReads> REGISTRY = new ConcurrentHashMap<>();

    private final String name;
    private final Map<Long, AtomicInteger> readFailures = new ConcurrentHashMap<>();
    private final Map<Long, AtomicInteger> commitFailures = new ConcurrentHashMap<>();
    private final AtomicInteger leasesTaken = new AtomicInteger();
    private final AtomicInteger activeLeases = new AtomicInteger();
    private final AtomicInteger newestLeases = new AtomicInteger();
    private final AtomicLong readDelayNanos = new AtomicLong();
    private final Map<TableBucket, CountDownLatch> leaseGates = new ConcurrentHashMap<>();
    private final Set<TableBucket> leasesWaiting = ConcurrentHashMap.newKeySet();

    public FaultyReads(String name) {
        this.name = name;
        REGISTRY.put(name, this);
    }

    public void unregister() {
        REGISTRY.remove(name);
    }

    /** Wraps what {@code inner} creates. */
    public TieringServiceFactory wrap(TieringServiceFactory inner) {
        return new Factory(inner, name);
    }

    public void failReads(long tableId, int times) {
        readFailures.computeIfAbsent(tableId, k -> new AtomicInteger()).set(times);
    }

    public void failCommits(long tableId, int times) {
        commitFailures.computeIfAbsent(tableId, k -> new AtomicInteger()).set(times);
    }

    /** Slows every record read down (to push rounds past their freshness). */
    public void delayReads(Duration perRecord) {
        readDelayNanos.set(perRecord.toNanos());
    }

    public int leasesTaken() {
        return leasesTaken.get();
    }

    public int activeLeases() {
        return activeLeases.get();
    }

    /** Leases of a bucket's newest snapshot: snapshot splits granted again (T52). */
    public int newestLeases() {
        return newestLeases.get();
    }

    /** Holds the next lease calls for {@code bucket}'s snapshots until {@link #releaseLeases}. */
    public void holdLeases(TableBucket bucket) {
        leaseGates.put(bucket, new CountDownLatch(1));
    }

    /** Whether a lease call for {@code bucket} waits at its gate. */
    public boolean leaseWaiting(TableBucket bucket) {
        return leasesWaiting.contains(bucket);
    }

    public void releaseLeases(TableBucket bucket) {
        CountDownLatch gate = leaseGates.remove(bucket);
        if (gate != null) {
            gate.countDown();
        }
    }

    private void awaitGate(TableBucket bucket) {
        CountDownLatch gate = leaseGates.get(bucket);
        if (gate == null) {
            return;
        }
        leasesWaiting.add(bucket);
        try {
            if (!gate.await(2, TimeUnit.MINUTES)) {
                throw new IllegalStateException("the lease gate of " + bucket + " never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            leasesWaiting.remove(bucket);
        }
    }

    private static boolean take(Map<Long, AtomicInteger> faults, long tableId) {
        AtomicInteger n = faults.get(tableId);
        return n != null && n.getAndUpdate(x -> Math.max(0, x - 1)) > 0;
    }

    private record Factory(TieringServiceFactory inner, String name)
            implements TieringServiceFactory {
        @Override
        public TieringService create() {
            FaultyReads faults = REGISTRY.get(name);
            if (faults == null) {
                throw new IllegalStateException("no faults registered as " + name);
            }
            return faults.new Service(inner.create());
        }
    }

    private final class Service extends ForwardingTieringService {
        Service(TieringService delegate) {
            super(delegate);
        }

        @Override
        public CompletableFuture<CommitOutcome> commit(String jobId, RoundCommit r) {
            if (take(commitFailures, r.tableId())) {
                return CompletableFuture.failedFuture(
                        new RetriableException("injected lost connection on commit"));
            }
            return delegate.commit(jobId, r);
        }

        @Override
        public SnapshotLease acquireSnapshotLease(TableBucket bucket, long snapshotId) {
            awaitGate(bucket);
            return counted(delegate.acquireSnapshotLease(bucket, snapshotId));
        }

        @Override
        public GrantedSnapshot acquireNewestSnapshotLease(TableBucket bucket, long fromOffset) {
            GrantedSnapshot g = delegate.acquireNewestSnapshotLease(bucket, fromOffset);
            newestLeases.incrementAndGet();
            return new GrantedSnapshot(counted(g.lease()), g.snapshotId(), g.logOffset());
        }

        private SnapshotLease counted(SnapshotLease lease) {
            leasesTaken.incrementAndGet();
            activeLeases.incrementAndGet();
            return new SnapshotLease() {
                private boolean released;

                @Override
                public Duration ttl() {
                    return lease.ttl();
                }

                @Override
                public void renew() {
                    lease.renew();
                }

                @Override
                public void close() {
                    if (!released) {
                        released = true;
                        activeLeases.decrementAndGet();
                    }
                    lease.close();
                }
            };
        }

        @Override
        public RecordCursor openLog(TableBucket bucket, long fromOffset, long toOffset) {
            if (take(readFailures, bucket.tableId())) {
                throw new StorageException("injected read failure for " + bucket);
            }
            return slowed(delegate.openLog(bucket, fromOffset, toOffset));
        }

        @Override
        public RecordCursor openSnapshot(TableBucket bucket, long snapshotId, long logOffset) {
            return slowed(delegate.openSnapshot(bucket, snapshotId, logOffset));
        }
    }

    private RecordCursor slowed(RecordCursor c) {
        return new RecordCursor() {
            @Override
            public boolean next() {
                long delay = readDelayNanos.get();
                if (delay > 0) {
                    LockSupport.parkNanos(delay);
                }
                return c.next();
            }

            @Override
            public long offset() {
                return c.offset();
            }

            @Override
            public long timestamp() {
                return c.timestamp();
            }

            @Override
            public ChangeType changeType() {
                return c.changeType();
            }

            @Override
            public EncodedRow row() {
                return c.row();
            }

            @Override
            public int sizeInBytes() {
                return c.sizeInBytes();
            }

            @Override
            public void close() {
                c.close();
            }
        };
    }
}
