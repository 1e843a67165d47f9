package dev.tributary.storage.kv;

import dev.tributary.common.record.WriteKind;

/**
 * The checked records of one write batch for a primary-key bucket: kinds, encoded primary keys, and
 * where each row's encoding sits in {@code rowBuffer} (copied into the changelog and the KV as is),
 * plus the batch's writer id and sequence (0 and -1 without a writer, T42).
 */
public record KvWrites(
        int schemaId,
        int count,
        WriteKind[] kinds,
        byte[][] keys,
        byte[] rowBuffer,
        int[] rowOffsets,
        int[] rowLengths,
        long writerId,
        long sequence) {
    public KvWrites(
            int schemaId,
            int count,
            WriteKind[] kinds,
            byte[][] keys,
            byte[] rowBuffer,
            int[] rowOffsets,
            int[] rowLengths) {
        this(schemaId, count, kinds, keys, rowBuffer, rowOffsets, rowLengths, 0L, -1L);
    }
}
