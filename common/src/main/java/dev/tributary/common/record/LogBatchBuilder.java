package dev.tributary.common.record;

import dev.tributary.common.io.BinaryWriter;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Encodes records into one {@link LogBatch}. The base offset is written as 0; the store sets it
 * with {@link LogBatch#setBaseOffset} when it assigns offsets. Not thread safe; single use.
 */
public final class LogBatchBuilder {
    private final int schemaId;
    private final BinaryWriter records;
    private final BinaryWriter scratch = new BinaryWriter(256);
    private byte[] changeTypes;
    private int count;
    private long firstTimestamp;
    private long lastTimestamp;
    private long writerId;
    private long writerSequence = -1;

    /**
     * @param schemaId the schema id the rows are encoded under
     * @param expectedBytes a size hint for the records area
     */
    public LogBatchBuilder(int schemaId, int expectedBytes) {
        this.schemaId = schemaId;
        this.records = new BinaryWriter(Math.max(64, expectedBytes));
        this.changeTypes = new byte[16];
    }

    /** Adds a row, encoding it with {@code codec} (the codec of this batch's schema). */
    public LogBatchBuilder add(ChangeType type, long timestamp, Row row, RowCodec codec) {
        scratch.reset();
        codec.encode(row, scratch);
        return addEncoded(type, timestamp, scratch.buffer(), 0, scratch.position());
    }

    /** Adds a row already in {@link RowCodec} form under this batch's schema (or an older one). */
    public LogBatchBuilder addEncoded(
            ChangeType type, long timestamp, byte[] row, int offset, int length) {
        if (count == 0) {
            firstTimestamp = timestamp;
        }
        lastTimestamp = timestamp;
        if (count == changeTypes.length) {
            changeTypes = Arrays.copyOf(changeTypes, count * 2);
        }
        changeTypes[count++] = type.toByteValue();
        records.writeSignedVarLong(timestamp - firstTimestamp);
        records.writeVarInt(length);
        records.writeBytes(row, offset, length);
        return this;
    }

    public int recordCount() {
        return count;
    }

    /**
     * Records that these records come from batch {@code sequence} of writer {@code writerId} (see
     * {@link WriteBatch#writerId()}), so that the store can rebuild the writer's last sequence from
     * its log. Default: no writer (0, -1).
     */
    public LogBatchBuilder writer(long writerId, long sequence) {
        this.writerId = writerId;
        this.writerSequence = sequence;
        return this;
    }

    /** The size {@link #build()} will return. */
    public int sizeInBytes() {
        return LogBatch.HEADER_SIZE + count + records.position();
    }

    /**
     * The encoded batch with base offset 0 and its checksum set.
     *
     * @throws IllegalStateException if no record was added (an empty batch is never stored)
     */
    public byte[] build() {
        if (count == 0) {
            throw new IllegalStateException("a log batch needs at least one record");
        }
        int size = sizeInBytes();
        byte[] out = new byte[size];
        LogBatch.writeLong(out, LogBatch.BASE_OFFSET_POS, 0L);
        LogBatch.writeInt(out, LogBatch.LENGTH_POS, size - LogBatch.LOG_OVERHEAD);
        out[LogBatch.MAGIC_POS] = LogBatch.MAGIC;
        LogBatch.writeInt(out, LogBatch.SCHEMA_ID_POS, schemaId);
        LogBatch.writeInt(out, LogBatch.COUNT_POS, count);
        LogBatch.writeLong(out, LogBatch.FIRST_TS_POS, firstTimestamp);
        LogBatch.writeLong(out, LogBatch.LAST_TS_POS, lastTimestamp);
        LogBatch.writeLong(out, LogBatch.WRITER_ID_POS, writerId);
        LogBatch.writeLong(out, LogBatch.WRITER_SEQUENCE_POS, writerSequence);
        System.arraycopy(changeTypes, 0, out, LogBatch.HEADER_SIZE, count);
        System.arraycopy(
                records.buffer(), 0, out, LogBatch.HEADER_SIZE + count, records.position());
        CRC32C crc = new CRC32C();
        crc.update(out, LogBatch.CRC_START, size - LogBatch.CRC_START);
        LogBatch.writeInt(out, LogBatch.CRC_POS, (int) crc.getValue());
        return out;
    }
}
