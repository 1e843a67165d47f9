/**
 * The record formats shared by client, server and tiering job: the client's {@link
 * dev.tributary.common.record.WriteBatch} (append / upsert / delete requests for one bucket) and
 * the stored {@link dev.tributary.common.record.LogBatch} (identical on disk and on the wire), plus
 * {@link dev.tributary.common.record.BucketRouter} to pick a row's bucket.
 */
package dev.tributary.common.record;
