package dev.tributary.storage;

import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.LogBatch;
import dev.tributary.common.record.LogBatches;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import java.util.ArrayList;
import java.util.List;

/** Schemas and helpers shared by the storage tests. */
public final class StoreTestSupport {
    private StoreTestSupport() {}

    public static final Schema LOG_SCHEMA =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT().notNull())
                    .column("name", DataTypes.STRING())
                    .column("payload", DataTypes.BYTES())
                    .build();

    public static final Schema PK_SCHEMA =
            Schema.newBuilder()
                    .column("k", DataTypes.INT())
                    .column("v", DataTypes.STRING().notNull())
                    .column("n", DataTypes.BIGINT())
                    .primaryKey("k")
                    .build();

    /** Every record of {@code [from, end)} of a bucket, read in small chunks, CRC-checked. */
    public static List<LogRecord> readAll(
            BucketStore store, TableBucket bucket, long from, Schema schema) {
        List<LogRecord> out = new ArrayList<>();
        long offset = from;
        long end = store.endOffset(bucket);
        while (offset < end) {
            LogReadResult r = store.read(bucket, offset, 512);
            for (LogBatch b : LogBatches.of(r.records())) {
                b.ensureValid();
                for (LogRecord rec : b.records(schema)) {
                    if (rec.offset() >= offset) {
                        out.add(rec);
                    }
                }
            }
            offset = r.nextOffset();
        }
        return out;
    }
}
