package dev.tributary.client.write;

/**
 * Where an acknowledged row went.
 *
 * @param bucket the bucket the row was written to (within its partition)
 * @param offset for an appended row, its own log offset; for an upsert or delete, the end offset of
 *     its batch's changelog records (the row is durable and visible below this offset)
 * @param keyWasAbsent for a delete: no row had its key, so nothing was deleted and the changelog
 *     did not change (false for appends and upserts). After a retry of an ambiguous failure it may
 *     also mean that the first attempt deleted the row.
 * @param partition the name of the row's partition ({@code dt=2026-12-01}), {@code null} for an
 *     unpartitioned table
 */
public record WriteResult(int bucket, long offset, boolean keyWasAbsent, String partition) {
    public WriteResult(int bucket, long offset) {
        this(bucket, offset, false, null);
    }

    public WriteResult(int bucket, long offset, boolean keyWasAbsent) {
        this(bucket, offset, keyWasAbsent, null);
    }
}
