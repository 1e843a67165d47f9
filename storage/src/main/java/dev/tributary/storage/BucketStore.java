package dev.tributary.storage;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.storage.kv.KvSnapshotInfo;
import dev.tributary.storage.kv.SnapshotLease;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The bucket store: for many tables, each table's buckets under one data directory. Every bucket
 * has a durable segmented log; a primary-key table's bucket also has its KV state in RocksDB, with
 * the log as its write-ahead log, and KV snapshots.
 *
 * <p>A library without threads of its own: appends run on the caller's thread (the thread that
 * finds no fsync in progress performs it for everyone waiting: group commit), and periodic work
 * ({@link #runRetention()}, {@link #maybeSnapshot()}) runs when the caller's scheduler calls it.
 * All methods are thread safe.
 *
 * <p>Errors: {@link dev.tributary.common.exception.InvalidInputException} for bad requests (nothing
 * written), {@link dev.tributary.common.exception.NotFoundException} for an unknown table, snapshot
 * or lease, {@link dev.tributary.common.exception.CorruptDataException} for data that fails
 * verification, {@link dev.tributary.common.exception.StorageException} for I/O failures.
 */
public final class BucketStore implements AutoCloseable {

    /**
     * Opens the store on {@code dataDir} (created if missing). Tables are opened one by one with
     * {@link #openTable}.
     *
     * @param conf store-wide options ({@link dev.tributary.storage.log.LogOptions}, {@link
     *     dev.tributary.storage.kv.KvOptions}); table properties override the {@code table.*} ones
     * @param clock the only source of time (append timestamps, retention, snapshot cadence, leases)
     */
    public static BucketStore open(Path dataDir, Configuration conf, Clock clock) {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /**
     * Creates a new table's buckets.
     *
     * @param schemaId the id of {@code schema}, the table's current schema (written into batches)
     * @throws dev.tributary.common.exception.AlreadyExistsException if the table's directory exists
     */
    public void createTable(long tableId, TableDescriptor descriptor, int schemaId, Schema schema) {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /**
     * Opens a table's buckets, creating them if missing; an existing table is recovered (torn log
     * tails truncated, KV restored from the newest snapshot plus log replay). Idempotent for a
     * table already open (the schema is updated if newer).
     */
    public void openTable(long tableId, TableDescriptor descriptor, int schemaId, Schema schema) {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /**
     * Makes {@code schema} (id {@code schemaId}) the table's current schema; write batches must be
     * encoded under it from now on. Rows stored under older schemas read with NULL in added
     * columns.
     */
    public void updateSchema(long tableId, int schemaId, Schema schema) {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /** Closes a table and deletes all its data. A no-op for an unknown table. */
    public void dropTable(long tableId) {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /** True if the table is open in this store. */
    public boolean hasTable(long tableId) {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /**
     * Writes a batch to the bucket named in it ({@link WriteBatch#tableId()}, {@link
     * WriteBatch#bucket()}). A log table appends the rows as {@code +A}; a primary-key table turns
     * upserts and deletes into its changelog ({@code +I} for a new key, {@code -U}/{@code +U} for
     * an existing key, {@code -D} with the old row for a delete; deleting a missing key writes
     * nothing) and applies it to the KV state.
     *
     * <p>The batch is checked completely before anything is written (unknown table or bucket,
     * schema id not the current one, field count, types, NULL in NOT NULL or key columns, kind not
     * fitting the table); a bad batch throws {@link
     * dev.tributary.common.exception.InvalidInputException} or {@link
     * dev.tributary.common.exception.NotFoundException} and leaves no trace.
     *
     * @return completes when the records are durable under {@code log.flush.policy}; it may be
     *     completed by another appending thread (group commit), so attach only quick callbacks
     */
    public CompletableFuture<AppendResult> append(WriteBatch batch) {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /**
     * Reads whole batches starting with the one that holds {@code fromOffset}, up to about {@code
     * maxBytes} (at least one batch if any is available), never past the high watermark. Batches
     * are checked against their CRC.
     *
     * @throws dev.tributary.common.exception.NotFoundException if {@code fromOffset} is below the
     *     log start offset (deleted by retention)
     * @throws dev.tributary.common.exception.InvalidInputException if {@code fromOffset} is beyond
     *     the end offset
     * @throws dev.tributary.common.exception.CorruptDataException if a stored batch is corrupt
     */
    public LogReadResult read(TableBucket bucket, long fromOffset, int maxBytes) {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /** The first offset still stored in the bucket's log. */
    public long startOffset(TableBucket bucket) {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /** The high watermark: offset after the last acknowledged (durable) record. */
    public long endOffset(TableBucket bucket) {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /**
     * The current row of a primary-key table for a key.
     *
     * @param key the primary-key values in primary-key order (arity = number of key columns)
     */
    public Optional<Row> lookup(TableBucket bucket, Row key) {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /**
     * Records the bucket's tiered offset (everything below it is in the lake). For a table with
     * {@code table.datalake.enabled}, retention never deletes a segment holding offsets at or above
     * it; until it is set, nothing is deleted for such a table.
     */
    public void setTieredOffset(TableBucket bucket, long offset) {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /**
     * One retention pass over every bucket: deletes log segments past {@code table.log.ttl} or
     * beyond {@code table.log.retention-size} (gated by the tiered offset and, for primary-key
     * tables, by the newest snapshot), and KV snapshots beyond {@code kv.snapshot.num-retained}
     * that no live lease holds.
     */
    public RetentionResult runRetention() {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /**
     * Snapshots every primary-key bucket whose last snapshot is {@code kv.snapshot.interval} old
     * (on the store clock) and that changed since; call it from the caller's scheduler.
     *
     * @return the snapshots taken
     */
    public List<KvSnapshotInfo> maybeSnapshot() {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /**
     * Snapshots a primary-key bucket now: a RocksDB checkpoint consistent at the bucket's current
     * end offset. If nothing changed since the newest snapshot, returns that one.
     */
    public KvSnapshotInfo snapshot(TableBucket bucket) {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /** Completed snapshots of a primary-key bucket, oldest first. */
    public List<KvSnapshotInfo> listSnapshots(TableBucket bucket) {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /** The newest completed snapshot of a primary-key bucket, if any. */
    public Optional<KvSnapshotInfo> latestSnapshot(TableBucket bucket) {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /**
     * Leases a snapshot so retention keeps it until the lease is released or expires ({@code
     * kv.snapshot.lease-timeout} after the last renewal).
     *
     * @throws dev.tributary.common.exception.NotFoundException if the snapshot does not exist
     */
    public SnapshotLease leaseSnapshot(TableBucket bucket, long snapshotId) {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /**
     * Extends a live lease by the lease timeout.
     *
     * @throws dev.tributary.common.exception.NotFoundException if the lease expired or was released
     *     (take a new one; the snapshot may be gone)
     */
    public SnapshotLease renewLease(TableBucket bucket, long leaseId) {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /** Releases a lease; a no-op for an unknown or expired lease. */
    public void releaseLease(TableBucket bucket, long leaseId) {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /**
     * Every row a snapshot holds, in key order, decoded under the table's current schema. Hold a
     * lease while iterating, so retention does not delete the snapshot meanwhile.
     *
     * @throws dev.tributary.common.exception.NotFoundException if the snapshot does not exist
     */
    public CloseableIterator<Row> readSnapshot(TableBucket bucket, long snapshotId) {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /** fsyncs every log and closes every table (RocksDB included). */
    @Override
    public void close() {
        throw new UnsupportedOperationException("not yet implemented");
    }
}
