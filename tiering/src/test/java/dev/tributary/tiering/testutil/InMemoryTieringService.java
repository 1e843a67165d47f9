package dev.tributary.tiering.testutil;

import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriteResultSerializer;
import dev.tributary.tiering.read.LogBatchCursor;
import dev.tributary.tiering.service.BucketPlan;
import dev.tributary.tiering.service.CommitOutcome;
import dev.tributary.tiering.service.CommitRequest;
import dev.tributary.tiering.service.HeartbeatResponse;
import dev.tributary.tiering.service.InFlightTable;
import dev.tributary.tiering.service.RecordCursor;
import dev.tributary.tiering.service.RoundPlan;
import dev.tributary.tiering.service.SnapshotLease;
import dev.tributary.tiering.service.TieringService;
import dev.tributary.tiering.service.TieringServiceFactory;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * An in-process stand-in for the server side of tiering: real bucket data in the store's log batch
 * format ({@link MemoryBucket}), a small coordinator (pending queue, epochs, fenced commit that
 * performs the real lake commit through a {@link LakeCommitter}), KV snapshot leases, and fault
 * injection. Registered by name so a Flink job in the same JVM (MiniCluster) reaches it through a
 * serializable {@link Factory}.
 */
public final class InMemoryTieringService {
    private static final Map<String, InMemoryTieringService> REGISTRY = new ConcurrentHashMap<>();

    /** A committed round as the coordinator recorded it. */
    public record CommittedRound(
            long tableId,
            long epoch,
            long roundId,
            Map<Integer, Long> offsets,
            int files,
            boolean forceFinished,
            long records) {}

    private enum State {
        IDLE,
        PENDING,
        TIERING
    }

    private final class Table {
        final long id;
        final TablePath path;
        final TableDescriptor descriptor;
        final Duration freshness;
        final Duration cadence;
        final MemoryBucket[] buckets;
        final TreeMap<Integer, Long> tiered = new TreeMap<>();
        State state = State.PENDING;
        long epoch;
        long roundId;
        long dueNanos;
        String jobId;

        Table(long id, TablePath path, TableDescriptor d, Duration freshness, Duration cadence) {
            this.id = id;
            this.path = path;
            this.descriptor = d;
            this.freshness = freshness;
            this.cadence = cadence;
            this.buckets = new MemoryBucket[d.bucketCount()];
            for (int i = 0; i < buckets.length; i++) {
                buckets[i] = new MemoryBucket(d.schema());
            }
        }
    }

    private final String name;
    private final LakeStorage lake;
    private final Clock clock;
    private final Map<Long, Table> tables = new HashMap<>();
    private final Deque<Long> pending = new ArrayDeque<>();
    private final AtomicLong nextTableId = new AtomicLong(1);
    private final Map<Long, AtomicInteger> readFailures = new ConcurrentHashMap<>();
    private final Map<Long, AtomicInteger> commitFailures = new ConcurrentHashMap<>();
    private final Map<String, Integer> activeLeases = new ConcurrentHashMap<>();
    private final AtomicInteger leasesTaken = new AtomicInteger();
    private final AtomicInteger leaseRenewals = new AtomicInteger();
    private final List<CommittedRound> committed = new CopyOnWriteArrayList<>();
    private final List<String> failedReports = new CopyOnWriteArrayList<>();
    private final AtomicLong fencedCommits = new AtomicLong();
    private volatile long readDelayNanosPerRecord;

    /**
     * @param lake where commits go; {@code null} for tests that never commit
     */
    public InMemoryTieringService(String name, LakeStorage lake, Clock clock) {
        this.name = name;
        this.lake = lake;
        this.clock = clock;
        REGISTRY.put(name, this);
    }

    public void unregister() {
        REGISTRY.remove(name);
    }

    public TieringServiceFactory factory() {
        return new Factory(name);
    }

    /** Reaches a registered service by name from a job running in this JVM. */
    public record Factory(String name) implements TieringServiceFactory {
        @Override
        public TieringService create() {
            InMemoryTieringService s = REGISTRY.get(name);
            if (s == null) {
                throw new IllegalStateException("no in-memory tiering service named " + name);
            }
            return s.new Session();
        }
    }

    // ------------------------------------------------------------------ test API

    /** Creates the table (and its lake table); pending at once. */
    public synchronized long createTable(
            TablePath path, TableDescriptor d, Duration freshness, Duration cadence) {
        long id = nextTableId.getAndIncrement();
        if (lake != null) {
            lake.catalog().createTable(path, d);
        }
        tables.put(id, new Table(id, path, d, freshness, cadence));
        pending.add(id);
        notifyAll();
        return id;
    }

    public MemoryBucket bucket(long tableId, int bucket) {
        return table(tableId).buckets[bucket];
    }

    public synchronized Map<Integer, Long> tieredOffsets(long tableId) {
        return new TreeMap<>(table(tableId).tiered);
    }

    public List<CommittedRound> committedRounds() {
        return List.copyOf(committed);
    }

    public List<String> failedReports() {
        return List.copyOf(failedReports);
    }

    public long fencedCommits() {
        return fencedCommits.get();
    }

    public int leasesTaken() {
        return leasesTaken.get();
    }

    public int leaseRenewals() {
        return leaseRenewals.get();
    }

    public int activeLeases() {
        return activeLeases.size();
    }

    public void failReads(long tableId, int times) {
        readFailures.computeIfAbsent(tableId, k -> new AtomicInteger()).set(times);
    }

    public void failCommits(long tableId, int times) {
        commitFailures.computeIfAbsent(tableId, k -> new AtomicInteger()).set(times);
    }

    /** Slows every read down (to push rounds past their freshness). */
    public void setReadDelayPerRecord(Duration delay) {
        readDelayNanosPerRecord = delay.toNanos();
    }

    /** True when every bucket of every table is tiered up to its current end. */
    public synchronized boolean caughtUp(long tableId) {
        Table t = table(tableId);
        for (int b = 0; b < t.buckets.length; b++) {
            if (t.tiered.getOrDefault(b, 0L) < t.buckets[b].endOffset()) {
                return false;
            }
        }
        return true;
    }

    private synchronized Table table(long tableId) {
        Table t = tables.get(tableId);
        if (t == null) {
            throw new NotFoundException("no table with id " + tableId);
        }
        return t;
    }

    // ------------------------------------------------------------------ coordinator side

    private synchronized Optional<RoundPlan> grant(String jobId, Duration maxWait)
            throws InterruptedException {
        long deadline = clock.nanoTime() + maxWait.toNanos();
        while (true) {
            long now = clock.nanoTime();
            for (Table t : tables.values()) {
                if (t.state == State.IDLE && now - t.dueNanos >= 0) {
                    t.state = State.PENDING;
                    pending.add(t.id);
                }
            }
            Long id = pending.poll();
            if (id != null) {
                Table t = tables.get(id);
                t.state = State.TIERING;
                t.jobId = jobId;
                t.epoch++;
                t.roundId++;
                List<BucketPlan> plans = new ArrayList<>();
                for (int b = 0; b < t.buckets.length; b++) {
                    MemoryBucket mb = t.buckets[b];
                    Long tiered = t.tiered.get(b);
                    MemoryBucket.KvSnapshot snap = mb.latestSnapshot();
                    if (tiered == null && t.descriptor.hasPrimaryKey() && snap != null) {
                        plans.add(BucketPlan.snapshot(b, snap.id(), snap.logOffset()));
                    } else {
                        plans.add(BucketPlan.log(b, tiered == null ? 0 : tiered, mb.endOffset()));
                    }
                }
                return Optional.of(
                        new RoundPlan(
                                t.id,
                                t.path,
                                t.epoch,
                                t.roundId,
                                t.freshness,
                                t.descriptor.hasPrimaryKey(),
                                plans));
            }
            long left = deadline - now;
            if (left <= 0) {
                return Optional.empty();
            }
            wait(Math.max(1, Math.min(20, left / 1_000_000)));
        }
    }

    private final java.util.Set<String> committedJobs = ConcurrentHashMap.newKeySet();

    /** Ids of the jobs that committed at least one round. */
    public java.util.Set<String> committedJobs() {
        return java.util.Set.copyOf(committedJobs);
    }

    private CommitOutcome commit(String jobId, CommitRequest r) {
        List<LakeWriteResult> results = new ArrayList<>();
        for (byte[] b : r.writeResults()) {
            results.add(LakeWriteResultSerializer.INSTANCE.deserialize(b));
        }
        List<LakeWriteResult> discarded = new ArrayList<>();
        for (byte[] b : r.discardedWriteResults()) {
            discarded.add(LakeWriteResultSerializer.INSTANCE.deserialize(b));
        }
        Table t;
        synchronized (this) {
            t = tables.get(r.tableId());
            // the fence: only the current attempt of a tiering table may commit (T19)
            if (t == null
                    || t.state != State.TIERING
                    || t.epoch != r.epoch()
                    || t.roundId != r.roundId()
                    || !jobId.equals(t.jobId)) {
                fencedCommits.incrementAndGet();
                abort(t, results);
                return CommitOutcome.FENCED;
            }
            AtomicInteger fail = commitFailures.get(r.tableId());
            if (fail != null && fail.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new StorageException("injected commit failure for table " + r.tableId());
            }
            TreeMap<Integer, Long> offsets = new TreeMap<>(t.tiered);
            offsets.putAll(r.tieredOffsets());
            if (!results.isEmpty()) {
                try (LakeCommitter committer = lake.createCommitter(t.path)) {
                    committer.commit(
                            results,
                            TieringSnapshotProperties.of(t.id, r.epoch(), r.roundId(), offsets));
                }
            }
            t.tiered.clear();
            t.tiered.putAll(offsets);
            committedJobs.add(jobId);
            t.state = State.IDLE;
            t.dueNanos = clock.nanoTime() + t.cadence.toNanos();
            committed.add(
                    new CommittedRound(
                            t.id,
                            r.epoch(),
                            r.roundId(),
                            r.tieredOffsets(),
                            results.size(),
                            r.forceFinished(),
                            r.records()));
            notifyAll();
        }
        abort(t, discarded);
        return CommitOutcome.COMMITTED;
    }

    private void abort(Table t, List<LakeWriteResult> results) {
        if (t != null && !results.isEmpty()) {
            try (LakeCommitter committer = lake.createCommitter(t.path)) {
                committer.abort(results);
            }
        }
    }

    private synchronized void failed(long tableId, long epoch, String reason) {
        Table t = tables.get(tableId);
        failedReports.add(tableId + "@" + epoch + ": " + reason);
        if (t != null && t.state == State.TIERING && t.epoch == epoch) {
            t.state = State.PENDING;
            pending.add(t.id);
            notifyAll();
        }
    }

    private synchronized HeartbeatResponse heartbeat(List<InFlightTable> inFlight) {
        List<InFlightTable> stale = new ArrayList<>();
        for (InFlightTable f : inFlight) {
            Table t = tables.get(f.tableId());
            if (t == null || t.state != State.TIERING || t.epoch != f.epoch()) {
                stale.add(f);
            }
        }
        return new HeartbeatResponse(stale, List.of());
    }

    // ------------------------------------------------------------------ the job's view

    /** One job component's connection; closing it leaves the service running. */
    private final class Session implements TieringService {
        @Override
        public void register(String jobId, String group) {}

        @Override
        public HeartbeatResponse heartbeat(String jobId, List<InFlightTable> inFlight) {
            return InMemoryTieringService.this.heartbeat(inFlight);
        }

        @Override
        public Optional<RoundPlan> requestTable(String jobId, Duration maxWait) {
            try {
                return grant(jobId, maxWait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }

        @Override
        public CommitOutcome commit(String jobId, CommitRequest request) {
            return InMemoryTieringService.this.commit(jobId, request);
        }

        @Override
        public void reportFailed(String jobId, long tableId, long epoch, String reason) {
            failed(tableId, epoch, reason);
        }

        @Override
        public TableDescriptor describeTable(TablePath tablePath, long tableId) {
            Table t = table(tableId);
            if (!t.path.equals(tablePath)) {
                throw new NotFoundException("table " + tablePath + " with id " + tableId);
            }
            return t.descriptor;
        }

        @Override
        public SnapshotLease acquireSnapshotLease(
                TableBucket bucket, long snapshotId, Duration ttl) {
            String key = bucket + "#" + snapshotId;
            activeLeases.merge(key, 1, Integer::sum);
            leasesTaken.incrementAndGet();
            return new SnapshotLease() {
                private boolean released;

                @Override
                public void renew() {
                    leaseRenewals.incrementAndGet();
                }

                @Override
                public void close() {
                    if (!released) {
                        released = true;
                        activeLeases.computeIfPresent(key, (k, n) -> n == 1 ? null : n - 1);
                    }
                }
            };
        }

        @Override
        public RecordCursor openLog(TableBucket bucket, long fromOffset, long toOffset) {
            AtomicInteger fail = readFailures.get(bucket.tableId());
            if (fail != null && fail.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new StorageException("injected read failure for " + bucket);
            }
            Table t = table(bucket.tableId());
            MemoryBucket mb = t.buckets[bucket.bucket()];
            RecordCursor c =
                    new LogBatchCursor(
                            mb.batchesFor(fromOffset, toOffset).iterator(),
                            RowCodec.of(t.descriptor.schema()),
                            fromOffset,
                            toOffset,
                            () -> {});
            return slowed(c);
        }

        @Override
        public RecordCursor openSnapshot(TableBucket bucket, long snapshotId) {
            Table t = table(bucket.tableId());
            MemoryBucket.KvSnapshot s = t.buckets[bucket.bucket()].snapshot(snapshotId);
            String key = bucket + "#" + snapshotId;
            List<Row> rows = s.rows();
            return slowed(
                    new RecordCursor() {
                        private int i = -1;

                        @Override
                        public boolean next() {
                            if (!activeLeases.containsKey(key)) {
                                throw new StorageException(
                                        "snapshot " + key + " read without a lease");
                            }
                            return ++i < rows.size();
                        }

                        @Override
                        public long offset() {
                            return s.logOffset() - 1;
                        }

                        @Override
                        public long timestamp() {
                            return -1;
                        }

                        @Override
                        public ChangeType changeType() {
                            return ChangeType.INSERT;
                        }

                        @Override
                        public Row row() {
                            return rows.get(i);
                        }

                        @Override
                        public int sizeInBytes() {
                            return 32;
                        }

                        @Override
                        public void close() {}
                    });
        }

        @Override
        public void close() {}
    }

    private RecordCursor slowed(RecordCursor c) {
        long delay = readDelayNanosPerRecord;
        if (delay <= 0) {
            return c;
        }
        return new RecordCursor() {
            @Override
            public boolean next() {
                LockSupport.parkNanos(delay);
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
            public Row row() {
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
