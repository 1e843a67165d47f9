package dev.tributary.common.record;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.io.BinaryReader;
import dev.tributary.common.io.BinaryWriter;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.types.Schema;
import java.util.ArrayList;
import java.util.List;

/**
 * A client's write request for one bucket of one table: a sequence of ({@link WriteKind}, {@link
 * Row}) encoded under one schema id. Build one with {@link #builder}; ship {@link #toBytes()}; the
 * server re-reads it with {@link #fromBytes} and {@link #reader}.
 *
 * <p>Encoding (little-endian): magic byte (the format version), table id (int64), bucket (int32),
 * schema id (int32), record count (int32); from version 2 on the writer id (int64) and the writer's
 * sequence number for this bucket (int64); then per record a kind byte and the row in {@link
 * RowCodec} form. Builders write version {@value #MAGIC}; {@link #fromBytes} also reads version
 * {@value #MAGIC_V1} (clients from before idempotent writers), whose batches have no writer.
 *
 * <p>The writer id and sequence make retries idempotent (T42): the server keeps the last sequence
 * it appended per (writer, bucket) and answers a batch it already appended with the first answer
 * instead of appending it again. {@link #NO_WRITER} turns that off for a batch.
 */
public final class WriteBatch {
    /** The format version builders write: with writer id and sequence. */
    public static final byte MAGIC = 2;

    /** The first format version, without writer id and sequence; still read. */
    public static final byte MAGIC_V1 = 1;

    /** The writer id of a batch that does not take part in duplicate detection. */
    public static final long NO_WRITER = 0L;

    /** The sequence of a batch without a writer. */
    public static final long NO_SEQUENCE = -1L;

    static final int HEADER_SIZE_V1 = 1 + 8 + 4 + 4 + 4;
    static final int HEADER_SIZE = HEADER_SIZE_V1 + 8 + 8;

    private final byte[] bytes;
    private final long tableId;
    private final int bucket;
    private final int schemaId;
    private final int recordCount;
    private final long writerId;
    private final long sequence;
    private final int headerSize;

    WriteBatch(
            byte[] bytes,
            long tableId,
            int bucket,
            int schemaId,
            int recordCount,
            long writerId,
            long sequence,
            int headerSize) {
        this.bytes = bytes;
        this.tableId = tableId;
        this.bucket = bucket;
        this.schemaId = schemaId;
        this.recordCount = recordCount;
        this.writerId = writerId;
        this.sequence = sequence;
        this.headerSize = headerSize;
    }

    /**
     * Starts a batch for a table bucket; rows are checked against {@code schema} as they are added.
     *
     * @param schemaId the id of {@code schema} in the table's schema history
     */
    public static WriteBatchBuilder builder(long tableId, int bucket, int schemaId, Schema schema) {
        return new WriteBatchBuilder(tableId, bucket, schemaId, schema);
    }

    /**
     * Wraps received bytes, checking the header only; rows are checked by {@link #reader}.
     *
     * @throws InvalidInputException if the header is malformed
     */
    public static WriteBatch fromBytes(byte[] bytes) {
        if (bytes == null || bytes.length < HEADER_SIZE_V1) {
            throw new InvalidInputException(
                    "malformed write batch: "
                            + (bytes == null ? "null" : bytes.length + " bytes")
                            + ", need at least a "
                            + HEADER_SIZE_V1
                            + "-byte header; build batches with WriteBatch.builder");
        }
        BinaryReader in = new BinaryReader(bytes);
        byte magic = in.readByte();
        if (magic != MAGIC && magic != MAGIC_V1) {
            throw new InvalidInputException(
                    "unsupported write batch version "
                            + magic
                            + "; this server reads versions "
                            + MAGIC_V1
                            + " and "
                            + MAGIC);
        }
        int headerSize = magic == MAGIC_V1 ? HEADER_SIZE_V1 : HEADER_SIZE;
        if (bytes.length < headerSize) {
            throw new InvalidInputException(
                    "malformed write batch: "
                            + bytes.length
                            + " bytes, version "
                            + magic
                            + " needs a "
                            + headerSize
                            + "-byte header");
        }
        long tableId = in.readLong();
        int bucket = in.readInt();
        int schemaId = in.readInt();
        int count = in.readInt();
        long writerId = NO_WRITER;
        long sequence = NO_SEQUENCE;
        if (magic != MAGIC_V1) {
            writerId = in.readLong();
            sequence = in.readLong();
            if (writerId == NO_WRITER ? sequence != NO_SEQUENCE : sequence < 0) {
                throw new InvalidInputException(
                        "malformed write batch: writer "
                                + writerId
                                + " with sequence "
                                + sequence
                                + "; a writer's sequences start at 0, a batch without writer"
                                + " (id 0) has sequence -1");
            }
        }
        if (count < 0 || count > bytes.length - headerSize) {
            throw new InvalidInputException(
                    "malformed write batch: record count "
                            + count
                            + " for "
                            + bytes.length
                            + " bytes");
        }
        return new WriteBatch(
                bytes, tableId, bucket, schemaId, count, writerId, sequence, headerSize);
    }

    public long tableId() {
        return tableId;
    }

    public int bucket() {
        return bucket;
    }

    public int schemaId() {
        return schemaId;
    }

    public int recordCount() {
        return recordCount;
    }

    /** The id of the writer that sent the batch, or {@link #NO_WRITER}. */
    public long writerId() {
        return writerId;
    }

    /**
     * The writer's sequence number of this batch in its bucket (0, 1, 2, ... per writer and
     * bucket), or {@link #NO_SEQUENCE} without a writer.
     */
    public long sequence() {
        return sequence;
    }

    /** The format version of the encoding ({@link #MAGIC} or {@link #MAGIC_V1}). */
    public byte version() {
        return bytes[0];
    }

    public int sizeInBytes() {
        return bytes.length;
    }

    /** The encoded batch (not copied: do not modify). */
    public byte[] toBytes() {
        return bytes;
    }

    /**
     * A cursor over the records under {@code schema} (the schema of {@link #schemaId()}), checking
     * each one: field count, framing, NOT NULL and value ranges (every column for append and
     * upsert, key columns for delete), and that the kind fits the table (append for log tables,
     * upsert/delete for primary-key tables).
     */
    public Reader reader(Schema schema) {
        return new Reader(schema);
    }

    /** All records, decoded and checked as by {@link #reader}. */
    public List<WriteRecord> records(Schema schema) {
        List<WriteRecord> out = new ArrayList<>(recordCount);
        Reader r = reader(schema);
        while (r.next()) {
            out.add(new WriteRecord(r.kind(), r.row()));
        }
        return out;
    }

    /**
     * Iterates the records of a batch. Besides the decoded row it exposes the row's encoded bytes,
     * so the store can copy them into the log without encoding again.
     */
    public final class Reader {
        private final Schema schema;
        private final RowCodec codec;
        private final RowLayout layout;
        private int pos = headerSize;
        private int index = -1;
        private WriteKind kind;
        private Row row;
        private int rowOffset;
        private int rowLength;

        private Reader(Schema schema) {
            this.schema = schema;
            this.codec = RowCodec.of(schema);
            this.layout = new RowLayout(schema);
        }

        /**
         * Moves to the next record, checking it without decoding the row.
         *
         * @return false after the last record
         * @throws InvalidInputException if the record is malformed or does not fit the schema
         */
        public boolean next() {
            if (index + 1 >= recordCount) {
                if (index + 1 == recordCount && pos != bytes.length) {
                    index++;
                    throw new InvalidInputException(
                            "malformed write batch: "
                                    + (bytes.length - pos)
                                    + " bytes after the last of "
                                    + recordCount
                                    + " records");
                }
                index = recordCount;
                return false;
            }
            index++;
            row = null;
            kind = null;
            try {
                if (pos >= bytes.length) {
                    throw new InvalidInputException("malformed write batch: it ends early");
                }
                kind = WriteKind.fromByteValue(bytes[pos]);
                RowChecker.checkKind(schema, kind);
                rowOffset = pos + 1;
                int end = layout.check(bytes, rowOffset, bytes.length, kind == WriteKind.DELETE);
                rowLength = end - rowOffset;
                pos = end;
            } catch (InvalidInputException e) {
                throw new InvalidInputException(
                        "record "
                                + index
                                + (kind == null ? "" : " (" + kind + ")")
                                + " of the write batch for schema "
                                + schemaId
                                + ": "
                                + e.getMessage(),
                        e);
            }
            return true;
        }

        /** Position of the current record, from 0. */
        public int index() {
            return index;
        }

        public WriteKind kind() {
            return kind;
        }

        /** The current row, decoded on first call. */
        public Row row() {
            if (row == null) {
                row = codec.decode(new BinaryReader(bytes, rowOffset, rowLength));
            }
            return row;
        }

        /**
         * Writes the current row's primary key in {@link RowCodec} form (the encoding of the key
         * columns' projection) to {@code out}.
         */
        public void writeKey(BinaryWriter out) {
            layout.writeKey(bytes, out);
        }

        /**
         * Writes the current row's projection onto {@code positions} in {@link RowCodec} form, as
         * {@link dev.tributary.common.row.BucketFunction#bucketOfEncoded} expects for bucket keys.
         */
        public void writeProjection(int[] positions, BinaryWriter out) {
            layout.writeProjection(bytes, positions, out);
        }

        /** The array holding the current row's {@link RowCodec} encoding. */
        public byte[] rowBuffer() {
            return bytes;
        }

        public int rowOffset() {
            return rowOffset;
        }

        public int rowLength() {
            return rowLength;
        }
    }

    @Override
    public String toString() {
        return "WriteBatch{table="
                + tableId
                + ", bucket="
                + bucket
                + ", schemaId="
                + schemaId
                + ", records="
                + recordCount
                + (writerId == NO_WRITER ? "" : ", writer=" + writerId + ", sequence=" + sequence)
                + ", bytes="
                + bytes.length
                + '}';
    }
}
