package dev.tributary.tiering.testutil;

import dev.tributary.common.record.LogBatch;
import dev.tributary.common.record.LogBatchBuilder;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.types.Schema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One bucket held in memory in the store's real log batch format: a log of batches with assigned
 * base offsets and, for a PK table, the KV state the changelog produces and KV snapshots of it.
 * Thread safe.
 */
public final class MemoryBucket {
    /** A KV snapshot: the state's rows, consistent at {@code logOffset}. */
    public record KvSnapshot(long id, long logOffset, List<Row> rows) {}

    private final Schema schema;
    private final RowCodec codec;
    private final List<byte[]> batches = new ArrayList<>();
    private final List<Long> baseOffsets = new ArrayList<>();
    private final Map<Row, Row> kv = new LinkedHashMap<>();
    private final Map<Long, KvSnapshot> snapshots = new LinkedHashMap<>();
    private long endOffset;
    private long nextSnapshotId = 1;

    public MemoryBucket(Schema schema) {
        this.schema = schema;
        this.codec = RowCodec.of(schema);
    }

    /** Appends rows of a log table as one batch; returns the first offset. */
    public synchronized long appendLog(List<Row> rows, long timestamp) {
        List<ChangeType> types = new ArrayList<>();
        rows.forEach(r -> types.add(ChangeType.APPEND_ONLY));
        return append(types, rows, timestamp);
    }

    /** Upserts (row) or deletes (delete=true) keys of a PK table, producing the changelog. */
    public synchronized void upsert(List<Row> rows, boolean delete, long timestamp) {
        List<ChangeType> types = new ArrayList<>();
        List<Row> out = new ArrayList<>();
        int[] pk = schema.primaryKeyIndexes();
        for (Row r : rows) {
            Row key = r.project(pk);
            Row old = kv.get(key);
            if (delete) {
                if (old != null) {
                    types.add(ChangeType.DELETE);
                    out.add(old);
                    kv.remove(key);
                }
            } else if (old == null) {
                types.add(ChangeType.INSERT);
                out.add(r);
                kv.put(key, r);
            } else {
                types.add(ChangeType.UPDATE_BEFORE);
                out.add(old);
                types.add(ChangeType.UPDATE_AFTER);
                out.add(r);
                kv.put(key, r);
            }
        }
        if (!out.isEmpty()) {
            append(types, out, timestamp);
        }
    }

    private long append(List<ChangeType> types, List<Row> rows, long timestamp) {
        LogBatchBuilder b = new LogBatchBuilder(0, rows.size() * 32);
        for (int i = 0; i < rows.size(); i++) {
            b.add(types.get(i), timestamp, rows.get(i), codec);
        }
        byte[] bytes = b.build();
        LogBatch.setBaseOffset(bytes, 0, endOffset);
        long first = endOffset;
        batches.add(bytes);
        baseOffsets.add(first);
        endOffset += rows.size();
        return first;
    }

    public synchronized long endOffset() {
        return endOffset;
    }

    /** Batches that hold offsets in {@code [from, to)}, in order. */
    public synchronized List<byte[]> batchesFor(long from, long to) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < batches.size(); i++) {
            long base = baseOffsets.get(i);
            long next = i + 1 < baseOffsets.size() ? baseOffsets.get(i + 1) : endOffset;
            if (next > from && base < to) {
                out.add(batches.get(i));
            }
        }
        return out;
    }

    public synchronized KvSnapshot takeSnapshot() {
        KvSnapshot s = new KvSnapshot(nextSnapshotId++, endOffset, new ArrayList<>(kv.values()));
        snapshots.put(s.id(), s);
        return s;
    }

    public synchronized KvSnapshot latestSnapshot() {
        KvSnapshot latest = null;
        for (KvSnapshot s : snapshots.values()) {
            latest = s;
        }
        return latest;
    }

    public synchronized KvSnapshot snapshot(long id) {
        return snapshots.get(id);
    }

    /** Every log record, decoded, for verification. */
    public synchronized List<dev.tributary.common.record.LogRecord> records() {
        List<dev.tributary.common.record.LogRecord> out = new ArrayList<>();
        for (byte[] b : batches) {
            LogBatch batch = LogBatch.wrap(b, 0, b.length);
            LogBatch.Cursor c = batch.cursor();
            while (c.next()) {
                out.add(
                        new dev.tributary.common.record.LogRecord(
                                c.offset(), c.timestamp(), c.changeType(), c.row(codec)));
            }
        }
        return out;
    }

    public Schema schema() {
        return schema;
    }
}
