package dev.tributary.lake.iceberg;

import java.io.IOException;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.BaseTaskWriter;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * Iceberg's task writer for one unpartitioned split: plain rolling data files for log tables, or,
 * for PK tables, data files plus equality deletes by key (and position deletes for keys written
 * earlier by this same writer, since equality deletes do not apply within their own commit).
 */
final class TributaryTaskWriter extends BaseTaskWriter<Record> {
    private final RollingFileWriter appendWriter;
    private final DeltaWriter deltaWriter;

    TributaryTaskWriter(
            PartitionSpec spec,
            FileWriterFactory<Record> writerFactory,
            OutputFileFactory fileFactory,
            FileIO io,
            long targetFileSize,
            boolean deletionVectors,
            Schema schema,
            Schema keySchema) {
        super(
                spec,
                FileFormat.PARQUET,
                writerFactory,
                fileFactory,
                io,
                targetFileSize,
                deletionVectors);
        if (keySchema == null) {
            this.appendWriter = new RollingFileWriter(null);
            this.deltaWriter = null;
        } else {
            this.appendWriter = null;
            this.deltaWriter = new DeltaWriter(schema, keySchema);
        }
    }

    @Override
    public void write(Record row) throws IOException {
        appendWriter.write(row);
    }

    /** Adds the row of a key that holds no row (or whose row was just retracted). */
    void insert(Record row) throws IOException {
        deltaWriter.write(row);
    }

    /** Upsert: retract whatever the key had, then add the row. */
    void upsert(Record row, Record key) throws IOException {
        deltaWriter.deleteKey(key);
        deltaWriter.write(row);
    }

    /** Delete the key's current row, wherever it was written. */
    void deleteKey(Record key) throws IOException {
        deltaWriter.deleteKey(key);
    }

    @Override
    public void close() throws IOException {
        try {
            if (appendWriter != null) {
                appendWriter.close();
            }
            if (deltaWriter != null) {
                deltaWriter.close();
            }
        } finally {
            super.close();
        }
    }

    private final class DeltaWriter extends BaseEqualityDeltaWriter {
        DeltaWriter(Schema schema, Schema keySchema) {
            super(
                    null,
                    schema,
                    keySchema,
                    org.apache.iceberg.deletes.DeleteGranularity.FILE,
                    dvFileWriter());
        }

        @Override
        protected StructLike asStructLike(Record data) {
            return data;
        }

        @Override
        protected StructLike asStructLikeKey(Record key) {
            return key;
        }
    }
}
