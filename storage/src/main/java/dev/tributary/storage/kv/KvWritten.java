package dev.tributary.storage.kv;

import dev.tributary.storage.log.LogBucket;

/**
 * What a primary-key write did: the changelog records it appended, and the deletes whose key had no
 * row (they write nothing, so only this tells a writer that nothing was deleted).
 *
 * @param absentDeletes indexes, in the write batch, of the deletes that found no row; ascending
 */
public record KvWritten(LogBucket.Appended appended, int[] absentDeletes) {}
