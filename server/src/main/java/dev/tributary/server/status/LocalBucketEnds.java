package dev.tributary.server.status;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.LogBatch;
import dev.tributary.common.record.LogBatches;
import dev.tributary.storage.BucketStore;
import dev.tributary.storage.LogReadResult;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;

/** {@link BucketEnds} read from this server's store: a lone server's, or the buckets it leads. */
public final class LocalBucketEnds implements BucketEnds {
    private final BucketStore store;

    public LocalBucketEnds(BucketStore store) {
        this.store = store;
    }

    @Override
    public Map<Integer, End> ends(
            long tableId, long partitionId, int buckets, Map<Integer, Long> tiered) {
        Map<Integer, End> out = new HashMap<>();
        for (int b = 0; b < buckets; b++) {
            out.put(b, end(new TableBucket(tableId, partitionId, b), tiered.getOrDefault(b, 0L)));
        }
        return out;
    }

    /** One bucket's end, the append time asked for when the end is past {@code tiered}. */
    public End end(TableBucket bucket, long tiered) {
        long end = store.endOffset(bucket);
        long from = Math.max(0, tiered);
        return new End(
                end,
                end > from ? OptionalLong.of(appendTimeAt(bucket, from)) : OptionalLong.empty());
    }

    /**
     * Append time of the record at {@code offset}, or of the oldest one still stored after it
     * (retention never removes untiered records, but the tiered offset may lag the log start after
     * a table was enabled for the lake late).
     */
    private long appendTimeAt(TableBucket bucket, long offset) {
        long from = Math.max(offset, store.startOffset(bucket));
        LogReadResult read = store.read(bucket, from, 1);
        for (LogBatch batch : LogBatches.of(read.records())) {
            LogBatch.Cursor c = batch.cursor();
            while (c.next()) {
                if (c.offset() >= from) {
                    return c.timestamp();
                }
            }
        }
        throw new CorruptDataException(
                "bucket "
                        + bucket.bucket()
                        + " has no record at or after offset "
                        + from
                        + " although its end offset is higher");
    }
}
