package dev.tributary.storage;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.TableOptions;
import dev.tributary.common.exception.AlreadyExistsException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.io.DurableFiles;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.storage.kv.KvBucket;
import dev.tributary.storage.kv.KvOptions;
import dev.tributary.storage.kv.KvSnapshotInfo;
import dev.tributary.storage.kv.LeasedSnapshot;
import dev.tributary.storage.kv.SnapshotLease;
import dev.tributary.storage.lakeindex.LakeRowIndex;
import dev.tributary.storage.log.LogBucket;
import dev.tributary.storage.log.LogOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bucket store: for many tables, each table's buckets under one data directory. Every bucket
 * has a durable segmented log; a primary-key table's bucket also has its KV state in RocksDB, with
 * the log as its write-ahead log, and KV snapshots.
 *
 * <p>A library without threads of its own: appends run on the caller's thread (the thread that
 * finds no fsync in progress performs it for everyone waiting: group commit; or a flush executor
 * the caller passes to {@link #open(Path, Configuration, Clock, java.util.concurrent.Executor)}
 * does), and periodic work ({@link #runRetention()}, {@link #maybeSnapshot()}) runs when the
 * caller's scheduler calls it. All methods are thread safe.
 *
 * <p>A partitioned table (T30) holds no buckets of its own: each of its partitions, added with
 * {@link #createPartition} or {@link #openPartition}, has the table's bucket count, under {@code
 * tables/<table id>/p<partition id>/}. A {@link TableBucket} names its partition. The partitions'
 * lifecycle is {@link PartitionedTables}'s; this class is the facade that routes to it.
 *
 * <p>Errors: {@link dev.tributary.common.exception.InvalidInputException} for bad requests (nothing
 * written), {@link dev.tributary.common.exception.NotFoundException} for an unknown table, snapshot
 * or lease, {@link dev.tributary.common.exception.CorruptDataException} for data that fails
 * verification, {@link dev.tributary.common.exception.StorageException} for I/O failures.
 */
public final class BucketStore implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BucketStore.class);
    private static final String TABLES_DIR = "tables";
    private static final String LAKE_ROW_INDEX_DIR = "lake-row-index";

    private final Path dataDir;
    private final Configuration conf;
    private final Clock clock;
    private final Executor flushExecutor;

    /** Unpartitioned tables; its monitor also guards which tables and partitions are open. */
    private final Map<Long, TableStore> tables = new ConcurrentHashMap<>();

    private final PartitionedTables partitioned;

    /** Opened on first use: only lake-enabled PK tables that retract by position need it. */
    private LakeRowIndex lakeRowIndex;

    private volatile boolean closed;

    private BucketStore(Path dataDir, Configuration conf, Clock clock, Executor flushExecutor) {
        this.dataDir = dataDir;
        this.conf = conf;
        this.clock = clock;
        this.flushExecutor = flushExecutor;
        this.partitioned =
                new PartitionedTables(
                        this::tableDir, this::notPartitioned, conf, clock, flushExecutor);
    }

    /** Every option the store reads, for documentation and up-front validation. */
    public static List<ConfigOption<?>> options() {
        return List.of(
                LogOptions.SEGMENT_SIZE,
                LogOptions.INDEX_INTERVAL,
                LogOptions.FLUSH_POLICY,
                TableOptions.LOG_TTL,
                TableOptions.LOG_RETENTION_SIZE,
                LogOptions.WRITER_STATE_EXPIRATION,
                TableOptions.DATALAKE_ENABLED,
                KvOptions.SNAPSHOT_INTERVAL,
                KvOptions.SNAPSHOT_NUM_RETAINED,
                KvOptions.LEASE_TIMEOUT,
                KvOptions.ACKNOWLEDGEMENT_TIMEOUT);
    }

    /**
     * Opens the store on {@code dataDir} (created if missing). Tables are opened one by one with
     * {@link #openTable}.
     *
     * @param conf store-wide options ({@link dev.tributary.storage.log.LogOptions}, {@link
     *     dev.tributary.storage.kv.KvOptions}); table properties override the {@code table.*} ones
     * @param clock the only source of time (append timestamps, retention, snapshot cadence, leases)
     */
    public static BucketStore open(Path dataDir, Configuration conf, Clock clock) {
        return open(dataDir, conf, clock, null);
    }

    /**
     * Like {@link #open(Path, Configuration, Clock)}, but group-commit fsyncs run on {@code
     * flushExecutor} (owned by the caller) instead of on an appending thread. Then {@link #append}
     * never blocks on fsync, and one writer with several batches in flight gets them durable
     * together. {@code null} means the appending threads.
     */
    public static BucketStore open(
            Path dataDir, Configuration conf, Clock clock, Executor flushExecutor) {
        try {
            Files.createDirectories(dataDir.resolve(TABLES_DIR));
        } catch (IOException e) {
            throw new StorageException("cannot create data directory " + dataDir + ": " + e, e);
        }
        // fail on bad store options at open
        conf.get(LogOptions.SEGMENT_SIZE);
        conf.get(LogOptions.INDEX_INTERVAL);
        conf.get(LogOptions.FLUSH_POLICY);
        conf.get(LogOptions.WRITER_STATE_EXPIRATION);
        conf.get(KvOptions.LEASE_TIMEOUT);
        return new BucketStore(dataDir, conf, clock, flushExecutor);
    }

    /**
     * Creates a new table's buckets.
     *
     * @param schemaId the id of {@code schema}, the table's current schema (written into batches)
     * @throws dev.tributary.common.exception.AlreadyExistsException if the table's directory exists
     */
    public void createTable(long tableId, TableDescriptor descriptor, int schemaId, Schema schema) {
        synchronized (tables) {
            ensureOpen();
            Path dir = tableDir(tableId);
            if (hasTable(tableId) || Files.exists(dir)) {
                throw new AlreadyExistsException(
                        "table id " + tableId + " already has data in " + dir);
            }
            if (descriptor.isPartitioned()) {
                partitioned.register(tableId, descriptor, schemaId, schema);
                return;
            }
            tables.put(tableId, openUnpartitioned(tableId, descriptor, schemaId, schema));
        }
    }

    /**
     * Opens a table's buckets, creating them if missing; an existing table is recovered (torn log
     * tails truncated, KV restored from the newest intact snapshot plus log replay). Idempotent for
     * a table already open (the schema is updated if newer).
     */
    public void openTable(long tableId, TableDescriptor descriptor, int schemaId, Schema schema) {
        synchronized (tables) {
            ensureOpen();
            if (descriptor.isPartitioned()) {
                partitioned.register(tableId, descriptor, schemaId, schema);
                return;
            }
            TableStore existing = tables.get(tableId);
            if (existing != null) {
                if (schemaId > existing.currentSchema().id()) {
                    existing.updateSchema(schemaId, schema);
                }
                return;
            }
            tables.put(tableId, openUnpartitioned(tableId, descriptor, schemaId, schema));
        }
    }

    private TableStore openUnpartitioned(
            long tableId, TableDescriptor descriptor, int schemaId, Schema schema) {
        return TableStore.open(
                tableDir(tableId),
                tableId,
                TableBucket.NO_PARTITION,
                null,
                descriptor,
                schemaId,
                schema,
                conf,
                clock,
                flushExecutor);
    }

    /**
     * Makes {@code schema} (id {@code schemaId}) the table's current schema; write batches must be
     * encoded under it from now on. Rows stored under older schemas read with NULL in added
     * columns.
     */
    public void updateSchema(long tableId, int schemaId, Schema schema) {
        if (!partitioned.updateSchema(tableId, schemaId, schema)) {
            table(tableId).updateSchema(schemaId, schema);
        }
    }

    /** Closes a table and deletes all its data. A no-op for an unknown table. */
    public void dropTable(long tableId) {
        synchronized (tables) {
            TableStore t = tables.remove(tableId);
            if (t != null) {
                t.close();
            }
            partitioned.remove(tableId);
            if (hasLakeRowIndex()) {
                lakeRowIndex().dropTable(tableId);
            }
            try {
                DurableFiles.deleteRecursively(tableDir(tableId));
            } catch (IOException e) {
                throw new StorageException(
                        "cannot delete the data of table " + tableId + ": " + e, e);
            }
        }
    }

    /**
     * Deletes one bucket's log and KV state and opens it empty again (its replicas moved to other
     * servers while this server keeps other buckets of its table or partition). A crash part way
     * leaves the whole old bucket or an empty one.
     *
     * @throws dev.tributary.common.exception.NotFoundException if its table or partition is not
     *     open here
     */
    public void resetBucket(TableBucket bucket) {
        synchronized (tables) {
            group(bucket).resetBucket(bucket.bucket());
        }
    }

    /** True if the table is open in this store. */
    public boolean hasTable(long tableId) {
        return tables.containsKey(tableId) || partitioned.contains(tableId);
    }

    /** True if the table is open in this store and partitioned. */
    public boolean isPartitioned(long tableId) {
        return partitioned.contains(tableId);
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
        if (partitioned.contains(batch.tableId())) {
            throw new InvalidInputException(
                    "table id "
                            + batch.tableId()
                            + " is partitioned: a write batch must name its partition");
        }
        return table(batch.tableId()).append(batch);
    }

    /**
     * Writes a batch to a bucket of a partition of a partitioned table, like {@link
     * #append(WriteBatch)}; every record must hold the partition's values in the partition columns
     * (checked before anything is written).
     *
     * @throws dev.tributary.common.exception.PartitionNotFoundException if the partition is not
     *     open or no longer takes writes (dropping); nothing is written
     */
    public CompletableFuture<AppendResult> append(long partitionId, WriteBatch batch) {
        if (partitionId == TableBucket.NO_PARTITION) {
            return append(batch);
        }
        return partitioned.append(partitionId, batch);
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
        if (maxBytes < 1) {
            throw new InvalidInputException("maxBytes must be positive, got " + maxBytes);
        }
        LogBucket.Read r = log(bucket).read(fromOffset, maxBytes);
        return new LogReadResult(
                r.records(), r.nextOffset(), r.highWatermark(), r.logStartOffset());
    }

    /**
     * The log of an open bucket, for the replication layer (T50), which makes it a leader's or a
     * follower's ({@link LogBucket#replicate}).
     *
     * @throws dev.tributary.common.exception.NotFoundException if the bucket is not open here
     */
    public LogBucket replicaLog(TableBucket bucket) {
        return log(bucket);
    }

    /**
     * The KV state of an open primary-key bucket, for the replication layer (T50, T51), which gives
     * it its replica's role; empty for a log table's bucket.
     *
     * @throws dev.tributary.common.exception.NotFoundException if the bucket is not open here
     */
    public Optional<KvBucket> replicaKv(TableBucket bucket) {
        return Optional.ofNullable(group(bucket).bucket(bucket.bucket()).kv);
    }

    /** The first offset still stored in the bucket's log. */
    public long startOffset(TableBucket bucket) {
        return log(bucket).startOffset();
    }

    /** The high watermark: offset after the last acknowledged (durable) record. */
    public long endOffset(TableBucket bucket) {
        return log(bucket).endOffset();
    }

    /**
     * The current row of a primary-key table for a key.
     *
     * @param key the primary-key values in primary-key order (arity = number of key columns)
     */
    public Optional<Row> lookup(TableBucket bucket, Row key) {
        return group(bucket).lookup(bucket.bucket(), key);
    }

    /** The bucket's tiered offset as last recorded here, or -1 when none was. */
    public long tieredOffset(TableBucket bucket) {
        TableStore.Bucket b = group(bucket).bucket(bucket.bucket());
        synchronized (b) {
            return b.tieredOffset;
        }
    }

    /**
     * Records the bucket's tiered offset (everything below it is in the lake). For a table with
     * {@code table.datalake.enabled}, retention never deletes a segment holding offsets at or above
     * it; until it is set, nothing is deleted for such a table.
     */
    public void setTieredOffset(TableBucket bucket, long offset) {
        if (offset < 0) {
            throw new InvalidInputException("tiered offset must be >= 0, got " + offset);
        }
        TableStore.Bucket b = group(bucket).bucket(bucket.bucket());
        synchronized (b) {
            b.tieredOffset = Math.max(b.tieredOffset, offset);
        }
    }

    /**
     * One retention pass over every bucket: forgets idempotent writers idle longer than {@code
     * server.writer.state-expiration}, deletes log segments past {@code table.log.ttl} or beyond
     * {@code table.log.retention-size} (gated by the tiered offset and, for primary-key tables, by
     * the oldest kept snapshot), and KV snapshots beyond {@code kv.snapshot.num-retained} that no
     * live lease holds.
     */
    public RetentionResult runRetention() {
        RetentionResult total = new RetentionResult(0, 0, 0);
        for (TableStore t : allStores()) {
            total = total.plus(t.runRetention());
        }
        return total;
    }

    /**
     * Snapshots every primary-key bucket whose last snapshot is {@code kv.snapshot.interval} old
     * (on the store clock) and that changed since; call it from the caller's scheduler. A
     * replicated leader whose in-sync replicas do not acknowledge its last writes in time is
     * skipped until the next call.
     *
     * @return the snapshots taken
     */
    public List<KvSnapshotInfo> maybeSnapshot() {
        List<KvSnapshotInfo> taken = new ArrayList<>();
        for (TableStore t : allStores()) {
            long interval = t.conf.get(KvOptions.SNAPSHOT_INTERVAL).toMillis();
            int retained = t.conf.get(KvOptions.SNAPSHOT_NUM_RETAINED);
            for (TableStore.Bucket b : t.buckets()) {
                if (b.kv != null && b.kv.snapshotDue(interval)) {
                    try {
                        taken.add(b.kv.snapshot(retained));
                    } catch (RetriableException e) {
                        LOG.info("bucket {}: no KV snapshot now: {}", b.id, e.getMessage());
                    }
                }
            }
        }
        return taken;
    }

    /**
     * Snapshots a primary-key bucket now: a RocksDB checkpoint consistent at the bucket's current
     * end offset. If nothing changed since the newest snapshot, returns that one.
     */
    public KvSnapshotInfo snapshot(TableBucket bucket) {
        TableStore t = group(bucket);
        return t.kv(bucket.bucket()).snapshot(t.conf.get(KvOptions.SNAPSHOT_NUM_RETAINED));
    }

    /** Completed snapshots of a primary-key bucket, oldest first. */
    public List<KvSnapshotInfo> listSnapshots(TableBucket bucket) {
        return kv(bucket).snapshots();
    }

    /** The newest completed snapshot of a primary-key bucket, if any. */
    public Optional<KvSnapshotInfo> latestSnapshot(TableBucket bucket) {
        return kv(bucket).latestSnapshot();
    }

    /**
     * Leases a snapshot so retention keeps it until the lease is released or expires ({@code
     * kv.snapshot.lease-timeout} after the last renewal).
     *
     * @throws dev.tributary.common.exception.NotFoundException if the snapshot does not exist
     */
    public SnapshotLease leaseSnapshot(TableBucket bucket, long snapshotId) {
        return kv(bucket).lease(snapshotId);
    }

    /**
     * Leases the bucket's newest snapshot if it was taken at or past {@code fromOffset}, else takes
     * one now (at an acknowledged offset, see {@link KvBucket#snapshot}) and leases that (T52: a
     * snapshot split whose snapshot went away with its server is granted again on the bucket's
     * leader, no earlier than planned).
     */
    public LeasedSnapshot leaseNewestSnapshot(TableBucket bucket, long fromOffset) {
        TableStore t = group(bucket);
        KvBucket kv = t.kv(bucket.bucket());
        for (int attempt = 1; ; attempt++) {
            KvSnapshotInfo s =
                    kv.latestSnapshot()
                            .filter(newest -> newest.logOffset() >= fromOffset)
                            .orElseGet(
                                    () -> kv.snapshot(t.conf.get(KvOptions.SNAPSHOT_NUM_RETAINED)));
            try {
                return new LeasedSnapshot(s, kv.lease(s.snapshotId()));
            } catch (NotFoundException retained) {
                // retention deleted it between the two calls: a newer one is there now
                if (attempt == 3) {
                    throw retained;
                }
            }
        }
    }

    /**
     * Extends a live lease by the lease timeout.
     *
     * @throws dev.tributary.common.exception.NotFoundException if the lease expired or was released
     *     (take a new one; the snapshot may be gone)
     */
    public SnapshotLease renewLease(TableBucket bucket, long leaseId) {
        return kv(bucket).renewLease(leaseId);
    }

    /** Releases a lease; a no-op for an unknown or expired lease. */
    public void releaseLease(TableBucket bucket, long leaseId) {
        kv(bucket).releaseLease(leaseId);
    }

    /**
     * Every row a snapshot holds, in key order, decoded under the table's current schema. Hold a
     * lease while iterating, so retention does not delete the snapshot meanwhile.
     *
     * @throws dev.tributary.common.exception.NotFoundException if the snapshot does not exist
     */
    public CloseableIterator<Row> readSnapshot(TableBucket bucket, long snapshotId) {
        return kv(bucket).readSnapshot(snapshotId);
    }

    /**
     * The rows of a snapshot in their stored {@link dev.tributary.common.row.RowCodec} encoding,
     * under the table's current schema or an older one (narrower); see {@link
     * KvBucket#readSnapshotEncoded}.
     */
    public CloseableIterator<byte[]> readSnapshotEncoded(TableBucket bucket, long snapshotId) {
        return kv(bucket).readSnapshotEncoded(snapshotId);
    }

    /** fsyncs every log and closes every table (RocksDB included). */
    @Override
    public void close() {
        synchronized (tables) {
            if (closed) {
                return;
            }
            closed = true;
            RuntimeException first = StoreFiles.closeEach(tables.values(), TableStore::close, null);
            tables.clear();
            first = partitioned.closeAll(first);
            if (lakeRowIndex != null) {
                first = StoreFiles.closeEach(List.of(lakeRowIndex), LakeRowIndex::close, first);
            }
            if (first != null) {
                throw first;
            }
        }
    }

    /**
     * The server's lake row index (T48): where each key's live row is in the lake copy of its
     * table, per bucket. Opened on first use; tables and partitions dropped here are dropped from
     * it.
     */
    public LakeRowIndex lakeRowIndex() {
        synchronized (tables) {
            if (closed) {
                throw new IllegalStateException("the store is closed");
            }
            if (lakeRowIndex == null) {
                lakeRowIndex = LakeRowIndex.open(dataDir.resolve(LAKE_ROW_INDEX_DIR));
            }
            return lakeRowIndex;
        }
    }

    /**
     * Applies {@code read} to the lake row index if it is open, without opening it (status must not
     * create the index's directory on a server that never used it, nor pay for opening it); empty
     * when it was not opened since the store opened, or the store is closed. Runs under the store's
     * lock so the index cannot close meanwhile: keep {@code read} to a few point reads.
     */
    public <T> Optional<T> readLakeRowIndexIfOpen(Function<LakeRowIndex, T> read) {
        synchronized (tables) {
            if (closed || lakeRowIndex == null) {
                return Optional.empty();
            }
            return Optional.ofNullable(read.apply(lakeRowIndex));
        }
    }

    private boolean hasLakeRowIndex() {
        return lakeRowIndex != null || Files.isDirectory(dataDir.resolve(LAKE_ROW_INDEX_DIR));
    }

    private Path tableDir(long tableId) {
        return dataDir.resolve(TABLES_DIR).resolve(Long.toString(tableId));
    }

    private TableStore table(long tableId) {
        TableStore t = tables.get(tableId);
        if (t == null) {
            if (partitioned.contains(tableId)) {
                throw new InvalidInputException(
                        "table id " + tableId + " is partitioned: name the bucket's partition");
            }
            ensureOpen();
            throw new NotFoundException(
                    "table id "
                            + tableId
                            + " is not open in this store (dropped or never created)");
        }
        return t;
    }

    private LogBucket log(TableBucket bucket) {
        return group(bucket).bucket(bucket.bucket()).log;
    }

    private KvBucket kv(TableBucket bucket) {
        return group(bucket).kv(bucket.bucket());
    }

    /** The buckets of the bucket's table, or of its partition. */
    private TableStore group(TableBucket bucket) {
        if (!bucket.isPartitioned()) {
            return table(bucket.tableId());
        }
        return partitioned.store(bucket.tableId(), bucket.partitionId());
    }

    /** The error for a table id that is not an open partitioned table. */
    private RuntimeException notPartitioned(long tableId) {
        ensureOpen();
        if (tables.containsKey(tableId)) {
            return new InvalidInputException(
                    "table id " + tableId + " is not partitioned; it has no partitions");
        }
        return new NotFoundException(
                "table id " + tableId + " is not open in this store (dropped or never created)");
    }

    /** Every open group of buckets: unpartitioned tables and every partition. */
    private List<TableStore> allStores() {
        List<TableStore> out = new ArrayList<>(tables.values());
        out.addAll(partitioned.stores());
        return out;
    }

    // ------------------------------------------------------------------ partitions (T30)

    /**
     * Creates a new partition's buckets.
     *
     * @param spec the partition's values (checked against the table's partition columns)
     * @throws dev.tributary.common.exception.AlreadyExistsException if the partition id has data
     */
    public void createPartition(long tableId, long partitionId, PartitionSpec spec) {
        synchronized (tables) {
            ensureOpen();
            partitioned.create(tableId, partitionId, spec);
        }
    }

    /**
     * Opens a partition's buckets, creating them if missing and recovering them if present (as
     * {@link #openTable} does for a table). Idempotent.
     */
    public void openPartition(long tableId, long partitionId, PartitionSpec spec) {
        synchronized (tables) {
            ensureOpen();
            partitioned.open(tableId, partitionId, spec);
        }
    }

    /**
     * Stops a partition taking writes (T33: a dropping partition refuses writes while it is still
     * tiered). Idempotent.
     *
     * @return true when no write is in flight any more, so its end offsets are final
     */
    public boolean sealPartition(long tableId, long partitionId) {
        return partitioned.seal(tableId, partitionId);
    }

    /** Closes a partition and deletes its data. A no-op for an unknown partition. */
    public void dropPartition(long tableId, long partitionId) {
        synchronized (tables) {
            partitioned.drop(tableId, partitionId);
            if (hasLakeRowIndex()) {
                lakeRowIndex().dropPartition(tableId, partitionId);
            }
        }
    }

    /**
     * Ids of the tables with data in this store's directory, open or not, ascending: with the
     * metadata, what a server finds of copies dropped or moved elsewhere while it was away.
     */
    public List<Long> storedTableIds() {
        return StoreFiles.numberedDirectories(dataDir.resolve(TABLES_DIR), "");
    }

    /** Ids of a partitioned table's partitions with data in this store, open or not, ascending. */
    public List<Long> storedPartitionIds(long tableId) {
        return StoreFiles.numberedDirectories(tableDir(tableId), PartitionedTables.DIR_PREFIX);
    }

    /**
     * The buckets of a table (or of one partition), open or not, whose stored log was a replica of
     * a replicated bucket here: it holds a high watermark checkpoint ({@link
     * dev.tributary.storage.log.LogBucket#highWatermarkCheckpoint}). A copy written as the only one
     * (before assignments existed, or with one replica that never moved) has none.
     *
     * @param partitionId the partition, or {@link TableBucket#NO_PARTITION}
     */
    public Set<Integer> replicatedBuckets(long tableId, long partitionId) {
        Path group =
                partitionId == TableBucket.NO_PARTITION
                        ? tableDir(tableId)
                        : tableDir(tableId).resolve(PartitionedTables.DIR_PREFIX + partitionId);
        Set<Integer> out = new TreeSet<>();
        for (long bucket : StoreFiles.numberedDirectories(group, "")) {
            Path log = group.resolve(Long.toString(bucket)).resolve("log");
            if (Files.exists(log.resolve(LogBucket.HIGH_WATERMARK_FILE))) {
                out.add((int) bucket);
            }
        }
        return out;
    }

    /** True if the partition is open in this store. */
    public boolean hasPartition(long tableId, long partitionId) {
        return partitioned.contains(tableId, partitionId);
    }

    /** Ids of the open partitions of a partitioned table, ascending. */
    public List<Long> partitionIds(long tableId) {
        return partitioned.ids(tableId);
    }

    /**
     * Deletes the directories of partitions of a table that {@code known} does not list (removed
     * from the metadata by a drop that crashed before it deleted the data).
     *
     * @return the ids deleted
     */
    public List<Long> deleteUnknownPartitions(long tableId, Set<Long> known) {
        synchronized (tables) {
            return partitioned.deleteUnknown(tableId, known);
        }
    }

    /**
     * Ids of the partitions of a table that had a write become durable since the last call, or that
     * were opened since (recovered data); the set is emptied. The tiering planner calls it before
     * reading end offsets, so that a round looks only at partitions that may have new data.
     */
    public Set<Long> drainChangedPartitions(long tableId) {
        return partitioned.drainChanged(tableId);
    }

    private void ensureOpen() {
        if (closed) {
            throw new StorageException("the bucket store is closed");
        }
    }
}
