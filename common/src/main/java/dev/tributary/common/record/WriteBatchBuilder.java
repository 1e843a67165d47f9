package dev.tributary.common.record;

import dev.tributary.common.io.BinaryWriter;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.types.Schema;

/**
 * Builds a {@link WriteBatch}. Each row is checked against the schema when added, so a bad row
 * fails at the call that added it. Not thread safe; single use.
 */
public final class WriteBatchBuilder {
    private final long tableId;
    private final int bucket;
    private final int schemaId;
    private final RowCodec codec;
    private final RowChecker checker;
    private final BinaryWriter out = new BinaryWriter(4096);
    private int count;
    private boolean built;
    private long writerId = WriteBatch.NO_WRITER;
    private long sequence = WriteBatch.NO_SEQUENCE;

    WriteBatchBuilder(long tableId, int bucket, int schemaId, Schema schema) {
        this.tableId = tableId;
        this.bucket = bucket;
        this.schemaId = schemaId;
        this.codec = RowCodec.of(schema);
        this.checker = new RowChecker(schema);
        out.position(WriteBatch.HEADER_SIZE);
    }

    /** Adds a row to a log table. */
    public WriteBatchBuilder append(Row row) {
        return add(WriteKind.APPEND, row);
    }

    /** Inserts or replaces a row of a primary-key table. */
    public WriteBatchBuilder upsert(Row row) {
        return add(WriteKind.UPSERT, row);
    }

    /** Deletes by primary key; fields outside the key may be NULL. */
    public WriteBatchBuilder delete(Row row) {
        return add(WriteKind.DELETE, row);
    }

    /**
     * Adds a record.
     *
     * @throws dev.tributary.common.exception.InvalidInputException if the row does not fit
     */
    public WriteBatchBuilder add(WriteKind kind, Row row) {
        if (built) {
            throw new IllegalStateException("this builder already built its batch");
        }
        checker.check(kind, row, count);
        out.writeByte(kind.toByteValue());
        codec.encode(row, out);
        count++;
        return this;
    }

    public int recordCount() {
        return count;
    }

    /**
     * Marks the batch as the {@code sequence}-th batch (from 0) of writer {@code writerId} in its
     * bucket, so the server appends it at most once however often it is sent (T42). Without this
     * call the batch has no writer and every send appends it.
     *
     * @throws IllegalArgumentException for writer id {@link WriteBatch#NO_WRITER} or a negative
     *     sequence
     */
    public WriteBatchBuilder writer(long writerId, long sequence) {
        if (writerId == WriteBatch.NO_WRITER || sequence < 0) {
            throw new IllegalArgumentException(
                    "a writer needs a non-zero id and a sequence >= 0, got writer "
                            + writerId
                            + " sequence "
                            + sequence);
        }
        this.writerId = writerId;
        this.sequence = sequence;
        return this;
    }

    /** Bytes the batch takes so far, to cap batches by size. */
    public int sizeInBytes() {
        return out.position();
    }

    public WriteBatch build() {
        built = true;
        int end = out.position();
        out.position(0);
        out.writeByte(WriteBatch.MAGIC);
        out.writeLong(tableId);
        out.writeInt(bucket);
        out.writeInt(schemaId);
        out.writeInt(count);
        out.writeLong(writerId);
        out.writeLong(sequence);
        out.position(end);
        return new WriteBatch(
                out.toByteArray(),
                tableId,
                bucket,
                schemaId,
                count,
                writerId,
                sequence,
                WriteBatch.HEADER_SIZE);
    }
}
