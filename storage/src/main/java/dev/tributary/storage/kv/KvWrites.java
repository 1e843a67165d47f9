package dev.tributary.storage.kv;

import dev.tributary.common.record.WriteKind;
import dev.tributary.common.row.Row;

/**
 * The checked records of one write batch for a primary-key bucket: kinds, decoded rows and where
 * each row's encoding sits in {@code rowBuffer} (copied into the changelog and the KV as is).
 */
public record KvWrites(
        int schemaId,
        int count,
        WriteKind[] kinds,
        Row[] rows,
        byte[] rowBuffer,
        int[] rowOffsets,
        int[] rowLengths) {}
