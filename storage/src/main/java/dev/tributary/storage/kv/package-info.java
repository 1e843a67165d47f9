/**
 * Primary-key buckets: KV state in RocksDB with the bucket's log as write-ahead log, changelog
 * generation ({@code +I}, {@code -U}/{@code +U}, {@code -D}), snapshots consistent at a log offset,
 * and leases that hold snapshots back from retention.
 */
package dev.tributary.storage.kv;
