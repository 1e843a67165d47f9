package dev.tributary.client.write;

/**
 * Where an acknowledged row went.
 *
 * @param bucket the bucket the row was written to
 * @param offset for an appended row, its own log offset; for an upsert or delete, the end offset of
 *     its batch's changelog records (the row is durable and visible below this offset)
 */
public record WriteResult(int bucket, long offset) {}
