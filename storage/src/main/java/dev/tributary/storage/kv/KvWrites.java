package dev.tributary.storage.kv;

import dev.tributary.common.record.WriteKind;

/**
 * The checked records of one write batch for a primary-key bucket: kinds, encoded primary keys, and
 * where each row's encoding sits in {@code rowBuffer} (copied into the changelog and the KV as is).
 */
public record KvWrites(
        int schemaId,
        int count,
        WriteKind[] kinds,
        byte[][] keys,
        byte[] rowBuffer,
        int[] rowOffsets,
        int[] rowLengths) {}
