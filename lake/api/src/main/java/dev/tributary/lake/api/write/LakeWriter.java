package dev.tributary.lake.api.write;

import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.EncodedRow;
import dev.tributary.common.row.Row;

/**
 * Writes the records of one split into new lake files. Nothing becomes visible until a {@link
 * dev.tributary.lake.api.commit.LakeCommitter} commits the result of {@link #complete()}.
 *
 * <p>Lifecycle: {@code write*} then exactly one of {@link #complete()} or {@link #abort()}, then
 * {@link #close()}. Not thread safe; one thread per writer.
 */
public interface LakeWriter extends AutoCloseable {

    /**
     * Writes one record.
     *
     * <p>For log tables {@code changeType} is {@link ChangeType#APPEND_ONLY} (INSERT is accepted
     * too). For primary-key tables {@code +I}/{@code +U} are upserts and {@code -U}/{@code -D}
     * delete the key (T8); records of one key must arrive in log order. Formats may rely on the
     * store's changelog guarantees: {@code +I} announces a key the lake table does not hold at the
     * split's start offset (or that an earlier record of the split deleted), and a {@code +U}
     * normally follows the {@code -U} of its key.
     *
     * @param row the Tributary row; it may be narrower than the table (written before a column was
     *     added), the missing trailing columns are NULL
     * @param changeType the record's change type
     * @param bucket the Tributary bucket the record was read from (stored in {@code __bucket})
     * @param offset the record's log offset (stored in {@code __offset})
     * @param timestampMillis the record's append time, epoch milliseconds (stored in {@code
     *     __timestamp})
     * @throws dev.tributary.common.exception.InvalidInputException when the row does not fit the
     *     table (too wide, wrong value class) or a change type is illegal for the table
     * @throws dev.tributary.common.exception.StorageException when writing a file fails
     */
    void write(Row row, ChangeType changeType, int bucket, long offset, long timestampMillis);

    /**
     * Writes one record given as a view of its encoded bytes, with the semantics of {@link
     * #write(Row, ChangeType, int, long, long)}. The tiering job writes through this method, so a
     * format should override it to copy the values straight into its own row classes (strings as
     * their UTF-8 bytes) instead of decoding them to Java objects first; this default decodes.
     *
     * @param row valid only during this call: copy whatever must outlive it
     */
    default void write(
            EncodedRow row, ChangeType changeType, int bucket, long offset, long timestampMillis) {
        write(row.toRow(), changeType, bucket, offset, timestampMillis);
    }

    /**
     * Flushes and closes the files written so far and describes them. The writer accepts no more
     * records afterwards. A writer that received no record returns a result with no files and row
     * count 0.
     */
    LakeWriteResult complete();

    /**
     * Deletes every file this writer created, writing nothing more (an open writer's buffered
     * records are dropped, never flushed to learn what to delete). Safe to call after {@link
     * #complete()} too. The writer is ABORTED afterwards even when deleting fails: it may then
     * throw a {@link dev.tributary.common.exception.StorageException} once, the files it could not
     * delete carry their attempt's name ({@link AttemptFileNames}) and go at the table's next
     * commit (T23), and neither a second abort nor {@link #close()} tries again.
     */
    void abort();

    /**
     * Releases resources. Files of a completed writer stay (they belong to its result); a writer
     * closed while still open is aborted. Idempotent: the writer is CLOSED afterwards whatever
     * happened.
     */
    @Override
    void close();
}
