package dev.tributary.planner.sim;

import dev.tributary.coordinator.spi.BucketState;
import dev.tributary.coordinator.spi.KvSnapshotRef;
import dev.tributary.planner.workload.ReaderModel;
import dev.tributary.planner.workload.TableLoad;
import dev.tributary.tiering.api.BucketPlan;
import java.util.ArrayList;
import java.util.List;

/**
 * The modeled store side of one table: each bucket's log grows at a constant rate from the table's
 * creation, so the end offset at any time and the write time of any offset are known exactly; a
 * primary-key table never tiered has a KV snapshot every {@link #SNAPSHOT_EVERY_MILLIS}.
 */
final class TableModel {
    /** How often a never-tiered primary-key bucket has a new KV snapshot. */
    static final long SNAPSHOT_EVERY_MILLIS = 60_000;

    final TableLoad load;
    final long tableId;
    final long createdMillis;
    private final double[] recordsPerMilli;
    private final double[] shares;

    TableModel(TableLoad load, long tableId, long createdMillis) {
        this.load = load;
        this.tableId = tableId;
        this.createdMillis = createdMillis;
        this.shares = load.bucketShares();
        this.recordsPerMilli = new double[load.buckets()];
        for (int b = 0; b < load.buckets(); b++) {
            recordsPerMilli[b] = load.writeRecordsPerSecond() * shares[b] / 1000.0;
        }
    }

    /** Records appended to bucket {@code b} up to {@code now}. */
    long endOffset(int b, long now) {
        return (long) Math.floor(Math.max(0, now - createdMillis) * recordsPerMilli[b]);
    }

    /**
     * When the record at {@code offset} of bucket {@code b} is (or will be) written; {@code
     * Long.MAX_VALUE} for a bucket nobody writes to.
     */
    long writeTime(int b, long offset) {
        if (recordsPerMilli[b] <= 0) {
            return Long.MAX_VALUE;
        }
        return createdMillis + (long) Math.ceil(offset / recordsPerMilli[b]);
    }

    /** What the store would report for the coordinator's round planner at {@code now}. */
    List<BucketState> bucketStates(long now) {
        List<BucketState> out = new ArrayList<>(load.buckets());
        for (int b = 0; b < load.buckets(); b++) {
            KvSnapshotRef snap = null;
            if (load.primaryKey() && !load.tiered()) {
                long age = Math.max(0, now - createdMillis);
                long at = createdMillis + age - age % SNAPSHOT_EVERY_MILLIS;
                long off = endOffset(b, at);
                if (off > 0 || load.stateBytes() > 0) {
                    // a state that predates the modeled writes still needs an offset to anchor on
                    snap = new KvSnapshotRef(1 + age / SNAPSHOT_EVERY_MILLIS, Math.max(1, off));
                }
            }
            out.add(
                    new BucketState(
                            b,
                            Math.max(endOffset(b, now), snap == null ? 0 : snap.logOffset()),
                            snap));
        }
        return out;
    }

    /** Bytes a split reads. */
    long splitBytes(BucketPlan w, long from, long to) {
        if (w.kind() == BucketPlan.Kind.SNAPSHOT) {
            return (long) Math.ceil(load.stateBytes() * shares[w.bucket()]);
        }
        return (long) Math.ceil((to - from) * load.recordBytes());
    }

    /**
     * How long a split takes: from its bytes and the reader model, or the table's fixed duration
     * for its {@code roundOrdinal}-th round (1 = first).
     */
    long splitMillis(ReaderModel reader, BucketPlan w, long from, long to, int roundOrdinal) {
        if (load.fixedDurations()) {
            boolean first = roundOrdinal == 1 && load.firstSplitDuration() != null;
            return Math.max(
                    1, (first ? load.firstSplitDuration() : load.splitDuration()).toMillis());
        }
        long bytes = splitBytes(w, from, to);
        if (w.kind() == BucketPlan.Kind.LOG && load.logBytesPerSecond() > 0) {
            return Math.max(
                    1,
                    reader.splitOverhead().toMillis()
                            + (long) Math.ceil(bytes * 1000.0 / load.logBytesPerSecond()));
        }
        return Math.max(1, reader.splitMillis(bytes, w.kind() == BucketPlan.Kind.SNAPSHOT));
    }

    /** The part of {@link #splitMillis} that is not moving data: what force-finish cannot cut. */
    long overheadMillis(ReaderModel reader) {
        return load.fixedDurations() ? 0 : reader.splitOverhead().toMillis();
    }
}
