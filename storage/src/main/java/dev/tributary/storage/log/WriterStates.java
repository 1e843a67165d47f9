package dev.tributary.storage.log;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.exception.OutOfOrderSequenceException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.io.BinaryReader;
import dev.tributary.common.io.BinaryWriter;
import dev.tributary.common.record.LogBatch;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The last batch every idempotent writer appended to one bucket (T42), so that a retried batch is
 * answered with its first answer instead of being appended again.
 *
 * <p>A writer's batches in a bucket carry sequences 0, 1, 2, ...; the client keeps at most one
 * batch per bucket in flight, so only the last batch can come again, and one entry per writer is
 * enough. A batch is accepted when its writer is unknown (new, or its state expired) or it follows
 * the last sequence by one; it is a duplicate when it repeats the last sequence; anything else is
 * out of order.
 *
 * <p>Not thread safe: the owning {@link LogBucket} guards it with its append lock.
 */
final class WriterStates {
    private static final int FILE_MAGIC = 0x54575331; // "TWS1"

    /**
     * A writer's last batch in the bucket.
     *
     * @param sequence its sequence
     * @param baseOffset offset of its first record
     * @param endOffset offset after its last record ({@code == baseOffset} if it wrote nothing)
     * @param timestampMillis when it was appended (store clock), for expiry
     * @param details what the first answer said besides the offsets (a PK batch's absent deletes);
     *     kept in memory only, so empty for entries recovered from disk
     */
    record Entry(
            long sequence, long baseOffset, long endOffset, long timestampMillis, int[] details) {

        /** The entry a stored batch's header describes (recovery and followers). */
        static Entry of(LogBatch batch) {
            return new Entry(
                    batch.writerSequence(),
                    batch.baseOffset(),
                    batch.nextOffset(),
                    batch.lastTimestamp(),
                    NONE);
        }
    }

    private final TableBucket bucket;
    private final Map<Long, Entry> byWriter = new HashMap<>();

    WriterStates(TableBucket bucket) {
        this.bucket = bucket;
    }

    /**
     * Judges a writer's batch.
     *
     * @return the entry of the batch it repeats, or null if it is new and may be appended
     * @throws OutOfOrderSequenceException if it neither repeats nor follows the last batch
     */
    Entry check(long writerId, long sequence) {
        Entry last = byWriter.get(writerId);
        if (last == null || sequence == last.sequence() + 1) {
            return null;
        }
        if (sequence == last.sequence()) {
            return last;
        }
        if (sequence < last.sequence()) {
            throw new OutOfOrderSequenceException(
                    "batch "
                            + sequence
                            + " of writer "
                            + writerId
                            + " to bucket "
                            + bucket
                            + " is older than the writer's last appended batch "
                            + last.sequence()
                            + ": a stale retry, not appended again");
        }
        throw new OutOfOrderSequenceException(
                "batch "
                        + sequence
                        + " of writer "
                        + writerId
                        + " to bucket "
                        + bucket
                        + " does not follow the writer's last appended batch "
                        + last.sequence()
                        + " (batches in between are missing); nothing was written. Continue"
                        + " with a new writer id: the rows of the writer's failed batches are in"
                        + " doubt");
    }

    /** Takes over every entry of {@code other} (recovery). */
    void putAll(WriterStates other) {
        byWriter.putAll(other.byWriter);
    }

    /** Forgets every writer (before a rebuild from the log). */
    void clear() {
        byWriter.clear();
    }

    /** Records a writer's newest batch. */
    void record(long writerId, Entry entry) {
        byWriter.put(writerId, entry);
    }

    /** Puts back a writer's entry as it was ({@code null}: unknown) after a failed record. */
    void restore(long writerId, Entry previous) {
        if (previous == null) {
            byWriter.remove(writerId);
        } else {
            byWriter.put(writerId, previous);
        }
    }

    /**
     * Forgets writers whose last batch is older than {@code cutoffMillis}.
     *
     * @return how many were forgotten
     */
    int expire(long cutoffMillis) {
        int before = byWriter.size();
        byWriter.values().removeIf(e -> e.timestampMillis() < cutoffMillis);
        return before - byWriter.size();
    }

    int size() {
        return byWriter.size();
    }

    /** The writer's last batch, or null. */
    Entry get(long writerId) {
        return byWriter.get(writerId);
    }

    /**
     * The state as of log offset {@code offset} (every batch below it included), CRC-protected:
     * magic, offset, count, then per writer id, sequence, base and end offset, timestamp.
     */
    byte[] encode(long offset) {
        BinaryWriter out = new BinaryWriter(16 + byWriter.size() * 40 + 4);
        out.writeInt(FILE_MAGIC);
        out.writeLong(offset);
        out.writeInt(byWriter.size());
        for (Map.Entry<Long, Entry> e : byWriter.entrySet()) {
            Entry v = e.getValue();
            out.writeLong(e.getKey());
            out.writeLong(v.sequence());
            out.writeLong(v.baseOffset());
            out.writeLong(v.endOffset());
            out.writeLong(v.timestampMillis());
        }
        CRC32C crc = new CRC32C();
        crc.update(out.buffer(), 0, out.position());
        out.writeInt((int) crc.getValue());
        return out.toByteArray();
    }

    /** A decoded state file: the state and the log offset it is consistent at. */
    record Decoded(long offset, WriterStates states) {}

    /**
     * @throws CorruptDataException if the bytes fail their checksum or framing
     */
    static Decoded decode(TableBucket bucket, byte[] bytes) {
        if (bytes.length < 20) {
            throw new CorruptDataException("writer state file too short: " + bytes.length);
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        BinaryReader tail = new BinaryReader(bytes, bytes.length - 4, 4);
        if (tail.readInt() != (int) crc.getValue()) {
            throw new CorruptDataException("writer state file fails its checksum");
        }
        BinaryReader in = new BinaryReader(bytes, 0, bytes.length - 4);
        if (in.readInt() != FILE_MAGIC) {
            throw new CorruptDataException("not a writer state file");
        }
        long offset = in.readLong();
        int n = in.readInt();
        if (n < 0 || in.remaining() != n * 40L) {
            throw new CorruptDataException("writer state file has a bad entry count " + n);
        }
        WriterStates states = new WriterStates(bucket);
        for (int i = 0; i < n; i++) {
            long writer = in.readLong();
            states.record(
                    writer,
                    new Entry(in.readLong(), in.readLong(), in.readLong(), in.readLong(), NONE));
        }
        return new Decoded(offset, states);
    }

    static final int[] NONE = new int[0];
}
