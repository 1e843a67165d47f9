package dev.tributary.tiering.testutil;

import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.NotLeaderForBucketException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.LogBatchBuilder;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.tiering.api.Attempt;
import dev.tributary.tiering.api.CommitOutcome;
import dev.tributary.tiering.api.HeartbeatResult;
import dev.tributary.tiering.api.JobSettings;
import dev.tributary.tiering.api.MaintenanceAttempt;
import dev.tributary.tiering.api.MaintenanceCommit;
import dev.tributary.tiering.api.MaintenanceOutcome;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.read.BatchCursor;
import dev.tributary.tiering.service.GrantedSnapshot;
import dev.tributary.tiering.service.RecordCursor;
import dev.tributary.tiering.service.SnapshotLease;
import dev.tributary.tiering.service.TieringService;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The data half of a {@link TieringService} for unit tests of a reader: tables of {@link
 * MemoryBucket}s in the store's real log batch format, read through the production {@link
 * BatchCursor}, and counted KV snapshot leases. It has no coordinator: every protocol call fails,
 * so no test can lean on behaviour production lacks (job tests run against a real server).
 */
public final class MemoryBuckets implements TieringService {
    private record Table(TablePath path, TableDescriptor descriptor, MemoryBucket[] buckets) {}

    private final Map<Long, Table> tables = new HashMap<>();
    private final Map<Long, AtomicInteger> readFailures = new HashMap<>();
    private final Map<Long, int[]> readBreaks = new HashMap<>();
    private final Duration leaseTtl;
    private long nextTableId = 1;
    private int activeLeases;
    private int leaseRenewals;

    /**
     * @param leaseTtl the lease timeout the "server" grants
     */
    public MemoryBuckets(Duration leaseTtl) {
        this.leaseTtl = leaseTtl;
    }

    public long createTable(TablePath path, TableDescriptor d) {
        MemoryBucket[] buckets = new MemoryBucket[d.bucketCount()];
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = new MemoryBucket(d.schema());
        }
        long id = nextTableId++;
        tables.put(id, new Table(path, d, buckets));
        return id;
    }

    public MemoryBucket bucket(long tableId, int bucket) {
        return table(tableId).buckets()[bucket];
    }

    /**
     * The next {@code times} reads of the table (log or snapshot; a snapshot read serves a batch
     * per row) break after {@code batches} batches, as a read does when its bucket's leader stops:
     * retriably.
     */
    public void breakReads(long tableId, int batches, int times) {
        readBreaks.put(tableId, new int[] {batches, times});
    }

    /** The next {@code times} log reads of the table fail. */
    public void failReads(long tableId, int times) {
        readFailures.computeIfAbsent(tableId, k -> new AtomicInteger()).set(times);
    }

    public int activeLeases() {
        return activeLeases;
    }

    public int leaseRenewals() {
        return leaseRenewals;
    }

    private Table table(long tableId) {
        Table t = tables.get(tableId);
        if (t == null) {
            throw new NotFoundException("no table with id " + tableId);
        }
        return t;
    }

    @Override
    public TableDescriptor describeTable(TablePath tablePath, long tableId) {
        Table t = table(tableId);
        if (!t.path().equals(tablePath)) {
            throw new NotFoundException("table " + tablePath + " with id " + tableId);
        }
        return t.descriptor();
    }

    @Override
    public SnapshotLease acquireSnapshotLease(TableBucket bucket, long snapshotId) {
        if (table(bucket.tableId()).buckets()[bucket.bucket()].snapshot(snapshotId) == null) {
            throw new NotFoundException("no snapshot " + snapshotId + " of bucket " + bucket);
        }
        return lease();
    }

    /**
     * As a server does: the newest snapshot if it is at or past {@code fromOffset}, else a new one.
     */
    @Override
    public GrantedSnapshot acquireNewestSnapshotLease(TableBucket bucket, long fromOffset) {
        MemoryBucket b = table(bucket.tableId()).buckets()[bucket.bucket()];
        MemoryBucket.KvSnapshot s = b.latestSnapshot();
        if (s == null || s.logOffset() < fromOffset) {
            s = b.takeSnapshot();
        }
        return new GrantedSnapshot(lease(), s.id(), s.logOffset());
    }

    private SnapshotLease lease() {
        activeLeases++;
        return new SnapshotLease() {
            private boolean released;

            @Override
            public Duration ttl() {
                return leaseTtl;
            }

            @Override
            public void renew() {
                leaseRenewals++;
            }

            @Override
            public void close() {
                if (!released) {
                    released = true;
                    activeLeases--;
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
        Iterator<byte[]> batches =
                t.buckets()[bucket.bucket()].batchesFor(fromOffset, toOffset).iterator();
        return BatchCursor.ofLog(
                maybeBreaking(batches, bucket),
                RowCodec.of(t.descriptor().schema()),
                fromOffset,
                toOffset,
                () -> {});
    }

    @Override
    public RecordCursor openSnapshot(TableBucket bucket, long snapshotId, long logOffset) {
        Table t = table(bucket.tableId());
        RowCodec codec = RowCodec.of(t.descriptor().schema());
        MemoryBucket.KvSnapshot s = t.buckets()[bucket.bucket()].snapshot(snapshotId);
        if (s == null) {
            throw new NotFoundException("no snapshot " + snapshotId + " of bucket " + bucket);
        }
        List<byte[]> batches = new java.util.ArrayList<>();
        for (Row row : s.rows()) {
            LogBatchBuilder b = new LogBatchBuilder(1, 1024);
            b.add(ChangeType.INSERT, 0L, row, codec);
            batches.add(b.build());
        }
        return BatchCursor.ofSnapshot(
                maybeBreaking(batches.iterator(), bucket), codec, logOffset, () -> {});
    }

    private Iterator<byte[]> maybeBreaking(Iterator<byte[]> batches, TableBucket bucket) {
        int[] brk = readBreaks.get(bucket.tableId());
        if (brk != null && brk[1] > 0) {
            brk[1]--;
            return breakingAfter(batches, brk[0], bucket);
        }
        return batches;
    }

    @Override
    public JobSettings register(String jobId, String group, int parallelism) {
        throw noCoordinator();
    }

    @Override
    public HeartbeatResult heartbeat(
            String jobId, List<Attempt> inFlight, List<MaintenanceAttempt> compactions) {
        throw noCoordinator();
    }

    @Override
    public HeartbeatResult requestWork(String jobId, Duration maxWait, boolean acceptCompaction) {
        throw noCoordinator();
    }

    @Override
    public CompletableFuture<MaintenanceOutcome> commitCompaction(
            String jobId, MaintenanceCommit commit) {
        throw noCoordinator();
    }

    @Override
    public void reportCompactionFailed(
            String jobId, MaintenanceAttempt attempt, String reason, List<byte[]> d) {
        throw noCoordinator();
    }

    @Override
    public CompletableFuture<CommitOutcome> commit(String jobId, RoundCommit request) {
        throw noCoordinator();
    }

    @Override
    public void reportFailed(String jobId, Attempt attempt, String reason, List<byte[]> d) {
        throw noCoordinator();
    }

    private static UnsupportedOperationException noCoordinator() {
        return new UnsupportedOperationException(
                "MemoryBuckets serves bucket data only; test the protocol against a real server");
    }

    @Override
    public void close() {}

    private static Iterator<byte[]> breakingAfter(
            Iterator<byte[]> batches, int count, TableBucket bucket) {
        return new Iterator<>() {
            int served;

            @Override
            public boolean hasNext() {
                if (served == count) {
                    throw new NotLeaderForBucketException(
                            "injected: this server stopped leading " + bucket);
                }
                return batches.hasNext();
            }

            @Override
            public byte[] next() {
                served++;
                return batches.next();
            }
        };
    }
}
