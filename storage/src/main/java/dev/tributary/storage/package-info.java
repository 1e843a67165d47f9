/**
 * The bucket store: {@link dev.tributary.storage.BucketStore} keeps, for many tables, each table's
 * buckets under one data directory.
 *
 * <pre>
 * &lt;data dir&gt;/tables/&lt;table id&gt;/&lt;bucket&gt;/
 *     log/&lt;base offset&gt;.log     segment files of {@link dev.tributary.common.record.LogBatch}es
 *     log/&lt;base offset&gt;.index   sparse offset index + summary of a sealed segment
 *     log/&lt;offset&gt;.writers      idempotent writers' last batches as of that offset (T42)
 *     kv/db/                       live RocksDB (primary-key tables; rebuilt on every open)
 *     kv/snapshots/snap-&lt;id&gt;/     RocksDB checkpoint + TRIBUTARY-SNAPSHOT metadata
 *     kv/leases                    the live snapshot leases (T9), kept across restarts
 * </pre>
 *
 * <p>{@code log} holds the segmented log ({@link dev.tributary.storage.log.LogBucket}); {@code kv}
 * the primary-key state ({@link dev.tributary.storage.kv.KvBucket}), its snapshots and leases.
 */
package dev.tributary.storage;
