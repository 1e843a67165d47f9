package dev.tributary.storage.kv;

import dev.tributary.common.id.TableBucket;

/**
 * A completed KV snapshot of a primary-key bucket.
 *
 * @param bucket the bucket
 * @param snapshotId increasing per bucket, from 1
 * @param logOffset the changelog offset the snapshot is consistent at: every change below it is in
 *     the snapshot, none at or above it
 * @param createdAtMillis wall-clock creation time
 */
public record KvSnapshotInfo(
        TableBucket bucket, long snapshotId, long logOffset, long createdAtMillis) {}
