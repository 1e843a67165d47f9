package dev.tributary.tiering.read;

import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.Throwables;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriteResultSerializer;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import dev.tributary.tiering.event.SplitResultEvent;
import dev.tributary.tiering.service.GrantedSnapshot;
import dev.tributary.tiering.service.RecordCursor;
import dev.tributary.tiering.service.SnapshotLease;
import dev.tributary.tiering.service.TieringService;
import dev.tributary.tiering.split.TieringSplit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one split and writes it through a {@link LakeWriter}, in bounded steps so the thread that
 * drives it can react to force-finish and abort between steps. The lake writer is created on the
 * first record (a split with nothing to write creates no files). A snapshot split holds a lease on
 * its KV snapshot from start to end, renewed at a third of the server's lease timeout (T9).
 *
 * <p>Lifecycle: {@link #step} until it returns true, or {@link #forceFinish} / {@link #abort}; then
 * {@link #result}. Not thread safe.
 *
 * <p>A log split whose read breaks with a retriable error (its bucket's leader stopped or moved,
 * T52) reads on from the next offset it needs, from wherever the bucket is led then, after a
 * backoff and up to {@value #MAX_REOPENS} times: what it wrote stays, so the round goes on and each
 * record is written once (the leader serves only records below the high watermark, which no leader
 * change takes back). A snapshot split's snapshot and lease live on one server, so a snapshot split
 * that loses them (a retriable read failure, or the snapshot or lease unknown where the bucket is
 * led now, or its id naming another state there) starts over instead, as often: it deletes what it
 * wrote and leases the newest snapshot of the bucket's leader taken at or past the planned one (the
 * leader takes one if it has none), and reports that snapshot's offset as the offset reached. Any
 * such snapshot is the bucket's state at its offset, acknowledged changes only, so the round's
 * commit holds each key once (T52).
 *
 * <p>No method throws (T22): any other failure of the server or of any lake I/O (open, write,
 * flush, abort, close) ends the split with a failed result, which fails only its table's round.
 * What an abort could not delete carries its attempt's name and is deleted by the table's next
 * commit (T23), so clean-up failures are logged, never thrown into the task that runs every table.
 * "Any" includes Errors: lake libraries throw them for I/O failures (Hadoop's local file system
 * throws {@code FSError} when a write hits a full disk). Only a {@link VirtualMachineError} is let
 * through.
 */
public final class SplitTierer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SplitTierer.class);

    private final TieringSplit split;
    private final TieringService service;
    private final Function<LakeWriterContext, LakeWriter> writers;
    private final Function<TieringSplit, TableDescriptor> descriptors;
    private final Clock clock;

    /** Reopens of a log split's read after retriable failures. */
    static final int MAX_REOPENS = 10;

    private static final long FIRST_REOPEN_BACKOFF_NANOS = 100_000_000L;
    private static final long MAX_REOPEN_BACKOFF_NANOS = 2_000_000_000L;

    private int reopens;
    private long reopenAtNanos;
    private TableDescriptor descriptor;
    private RecordCursor cursor;
    private SnapshotLease lease;
    private long leaseRenewedNanos;
    // a snapshot split's snapshot and its offset: the planned ones until it is granted again
    private long snapshotId;
    private long snapshotOffset;
    private boolean snapshotLost;
    private boolean described;
    private LakeWriter writer;
    private long nextOffset;
    private long records;
    private long bytes;
    private SplitResultEvent result;

    public SplitTierer(
            TieringSplit split,
            TieringService service,
            Function<LakeWriterContext, LakeWriter> writers,
            Function<TieringSplit, TableDescriptor> descriptors,
            Clock clock) {
        this.split = split;
        this.service = service;
        this.writers = writers;
        this.descriptors = descriptors;
        this.clock = clock;
        this.nextOffset = split.startOffset();
        if (split.isSnapshot()) {
            this.snapshotId = split.snapshotId();
            this.snapshotOffset = split.endOffset();
        }
    }

    public TieringSplit split() {
        return split;
    }

    /**
     * Reads and writes up to {@code maxRecords} records.
     *
     * @return true when the split ended (its result is ready)
     */
    public boolean step(int maxRecords) {
        if (result != null) {
            return true;
        }
        try {
            if (cursor == null) {
                if (reopenDelayNanos() > 0) {
                    return false;
                }
                try {
                    open();
                } catch (RuntimeException e) {
                    if (descriptor != null && reopenLater(e)) {
                        return false;
                    }
                    throw e;
                }
            }
            for (int i = 0; i < maxRecords; i++) {
                boolean more;
                try {
                    if (i == 0) {
                        renewLeaseIfDue();
                    }
                    more = cursor.next();
                } catch (RuntimeException e) {
                    if (reopenLater(e)) {
                        return false;
                    }
                    throw e;
                }
                if (!more) {
                    finish(split.isSnapshot() ? snapshotOffset : split.endOffset());
                    return true;
                }
                write();
            }
            return false;
        } catch (Throwable e) {
            fail(e);
            return true;
        }
    }

    /** How long until a broken read is reopened; 0 when the split is not waiting to. */
    public long reopenDelayNanos() {
        return cursor == null && result == null && reopens > 0
                ? Math.max(0, reopenAtNanos - clock.nanoTime())
                : 0;
    }

    /**
     * After a read failure: whether the split reads on later (a retriable failure, or a snapshot
     * split's snapshot or lease gone; reopens left), with the cursor closed and the reopen
     * scheduled. A snapshot split starts over: what it wrote is deleted.
     */
    private boolean reopenLater(RuntimeException e) {
        boolean retriable = Throwables.causedBy(e, RetriableException.class);
        // a table dropped meanwhile fails its description, not its snapshot; a snapshot id the
        // bucket's new leader gives to another state is refused as fenced
        boolean snapshotGone =
                split.isSnapshot()
                        && described
                        && (Throwables.causedBy(e, NotFoundException.class)
                                || Throwables.causedBy(e, FencedException.class));
        if (reopens >= MAX_REOPENS || !(retriable || snapshotGone)) {
            return false;
        }
        RecordCursor broken = cursor;
        cursor = null;
        quietly("the broken cursor", broken);
        if (split.isSnapshot()) {
            startOver();
        }
        long backoff =
                Math.min(
                        MAX_REOPEN_BACKOFF_NANOS,
                        FIRST_REOPEN_BACKOFF_NANOS << Math.min(reopens, 10));
        reopens++;
        reopenAtNanos = clock.nanoTime() + backoff;
        LOG.info(
                "split {}: reading {} broke ({}); {} in {} ms ({} of {})",
                split.splitId(),
                split.isSnapshot() ? "snapshot " + snapshotId : "from offset " + nextOffset,
                e.toString(),
                split.isSnapshot() ? "starting over on the newest snapshot" : "reading on",
                backoff / 1_000_000,
                reopens,
                MAX_REOPENS);
        return true;
    }

    /** Drops what a snapshot split wrote and its lease: the next open leases a newer snapshot. */
    private void startOver() {
        deleteWrittenFiles("before starting over");
        LakeWriter w = writer;
        SnapshotLease l = lease;
        writer = null;
        lease = null;
        quietly("the lake writer", w);
        quietly("the snapshot lease", l);
        records = 0;
        bytes = 0;
        snapshotLost = true;
    }

    /**
     * Force-finish (T13): a log split stops here and reports what it wrote; a snapshot split
     * ignores it and runs to completion (T14).
     *
     * @return true when the split ended
     */
    public boolean forceFinish() {
        if (result == null && !split.isSnapshot()) {
            try {
                finish(nextOffset);
            } catch (Throwable e) {
                fail(e);
            }
        }
        return result != null;
    }

    /** Deletes what was written and drops the split (its round failed or went stale). */
    public void abort() {
        deleteWrittenFiles("aborted");
        closeResources();
    }

    /** The split's result; only after the split ended. */
    public SplitResultEvent result() {
        if (result == null) {
            throw new IllegalStateException("split " + split + " has not ended");
        }
        return result;
    }

    public long records() {
        return records;
    }

    @Override
    public void close() {
        closeResources();
    }

    private void open() {
        // resolve the table first: a dropped (or dropped and re-created) table fails here (T20)
        described = false;
        descriptor = descriptors.apply(split);
        described = true;
        if (split.isSnapshot()) {
            if (snapshotLost) {
                GrantedSnapshot granted =
                        service.acquireNewestSnapshotLease(split.tableBucket(), split.endOffset());
                lease = granted.lease();
                snapshotId = granted.snapshotId();
                snapshotOffset = granted.logOffset();
                LOG.info(
                        "split {}: starts over on snapshot {} at offset {}",
                        split.splitId(),
                        snapshotId,
                        snapshotOffset);
            } else {
                lease = service.acquireSnapshotLease(split.tableBucket(), snapshotId);
            }
            leaseRenewedNanos = clock.nanoTime();
            cursor = service.openSnapshot(split.tableBucket(), snapshotId, snapshotOffset);
        } else {
            // after a broken read: on from the first offset not written yet
            cursor = service.openLog(split.tableBucket(), nextOffset, split.endOffset());
        }
    }

    private void renewLeaseIfDue() {
        // at a third of the server's lease timeout: a slow step still renews before it lapses
        if (lease != null && clock.nanoTime() - leaseRenewedNanos >= lease.ttl().toNanos() / 3) {
            lease.renew();
            leaseRenewedNanos = clock.nanoTime();
        }
    }

    private void write() {
        if (writer == null) {
            writer =
                    writers.apply(
                            new LakeWriterContext(
                                    split.tablePath(),
                                    split.tableId(),
                                    descriptor,
                                    split.bucket(),
                                    split.epoch(),
                                    split.roundId(),
                                    split.partitionId(),
                                    split.partitionName() == null
                                            ? null
                                            : PartitionSpec.parse(split.partitionName()),
                                    split.isSnapshot()
                                            ? LakeWriterContext.SplitSource.KV_SNAPSHOT
                                            : LakeWriterContext.SplitSource.LOG,
                                    descriptor.hasPrimaryKey() && !split.isSnapshot()
                                            ? (snapshotId, keys) ->
                                                    service.locateLakeRows(
                                                            split.tableBucket(), snapshotId, keys)
                                            : null));
        }
        if (!split.isSnapshot() && cursor.offset() >= split.endOffset()) {
            throw new IllegalStateException(
                    "log cursor of "
                            + split
                            + " returned offset "
                            + cursor.offset()
                            + " past the range");
        }
        writer.write(
                cursor.row(),
                cursor.changeType(),
                split.bucket(),
                cursor.offset(),
                cursor.timestamp());
        records++;
        bytes += cursor.sizeInBytes();
        if (!split.isSnapshot()) {
            nextOffset = cursor.offset() + 1;
        }
    }

    private void finish(long offsetReached) {
        byte[] bytesOut = null;
        if (writer != null) {
            LakeWriteResult r = writer.complete();
            bytesOut = LakeWriteResultSerializer.INSTANCE.serialize(r);
        }
        closeResources();
        result =
                new SplitResultEvent(
                        split.splitId(),
                        split.tableId(),
                        split.epoch(),
                        split.roundId(),
                        split.bucket(),
                        offsetReached,
                        bytesOut,
                        records,
                        bytes,
                        null);
    }

    private void fail(Throwable e) {
        rethrowIfFatal(e);
        try {
            if (writer != null) {
                writer.abort();
            }
        } catch (Throwable suppressed) {
            rethrowIfFatal(suppressed);
            e.addSuppressed(suppressed);
        }
        closeResources();
        result =
                new SplitResultEvent(
                        split.splitId(),
                        split.tableId(),
                        split.epoch(),
                        split.roundId(),
                        split.bucket(),
                        split.startOffset(),
                        null,
                        0,
                        0,
                        e.getClass().getSimpleName() + ": " + e.getMessage());
    }

    /** Aborts the lake writer, if any; files it could not delete go with the next commit (T23). */
    private void deleteWrittenFiles(String when) {
        if (writer == null) {
            return;
        }
        try {
            writer.abort();
        } catch (Throwable e) {
            rethrowIfFatal(e);
            LOG.warn(
                    "could not delete the files of split {} ({}); the table's next commit deletes"
                            + " them",
                    split,
                    when,
                    e);
        }
    }

    /** Releases the cursor, the writer and the lease, each whatever the others do. */
    private void closeResources() {
        RecordCursor c = cursor;
        LakeWriter w = writer;
        SnapshotLease l = lease;
        cursor = null;
        writer = null;
        lease = null;
        quietly("the log cursor", c);
        quietly("the lake writer", w);
        quietly("the snapshot lease", l);
    }

    private void quietly(String what, AutoCloseable resource) {
        if (resource == null) {
            return;
        }
        try {
            resource.close();
        } catch (Throwable e) {
            rethrowIfFatal(e);
            LOG.warn("closing {} of split {} failed", what, split, e);
        }
    }

    /** The JVM cannot go on after these; anything else a lake library throws fails the split. */
    private static void rethrowIfFatal(Throwable t) {
        if (t instanceof VirtualMachineError e) {
            throw e;
        }
    }
}
