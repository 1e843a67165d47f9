package dev.tributary.storage.kv;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotLeaderForBucketException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.io.DurableFiles;
import dev.tributary.common.record.LogBatch;
import dev.tributary.common.record.LogBatchBuilder;
import dev.tributary.common.record.LogBatches;
import dev.tributary.common.record.WriteKind;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataType;
import dev.tributary.common.types.Schema;
import dev.tributary.storage.CloseableIterator;
import dev.tributary.storage.log.LogBucket;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.stream.Stream;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Checkpoint;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The KV state of one primary-key bucket in RocksDB, with the bucket's log as its write-ahead log.
 *
 * <p>A write reads the old rows, turns upserts and deletes into changelog records ({@code +I},
 * {@code -U}/{@code +U}, {@code -D}), appends them to the log and then applies them to RocksDB
 * (whose own WAL is off). The live RocksDB directory is therefore never trusted after a restart:
 * opening restores the newest intact snapshot (a damaged one is moved aside and the next older one
 * used, as long as the log still reaches back to it) and replays the log from its offset.
 *
 * <p>A replicated bucket (T50, T51) keeps its KV state on every replica, with the log as the only
 * thing copied: a follower applies what it copied up to the leader's high watermark ({@link
 * #catchUp}), so its state never holds a record a failover can take back; a replica named leader
 * applies the rest of its log before it takes a write ({@link #lead}); a leader that loses its
 * leadership with changes nobody acknowledged rebuilds its state from a snapshot and its log up to
 * the high watermark ({@link #follow}). Snapshots are taken at acknowledged offsets only, and a
 * leader answers a lookup only once the writes it may have seen are acknowledged, so neither the
 * lake nor a reader sees a change a failover takes back.
 */
public final class KvBucket implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KvBucket.class);

    static {
        RocksDB.loadLibrary();
    }

    private static final byte[] DELETED = new byte[0];

    /** What this bucket's replica does with its KV state (T50). */
    public enum Role {
        /** One copy: writes apply at once, readers see them. */
        SINGLE,
        /** Leads a replicated bucket: writes apply at once, readers see them once acknowledged. */
        LEADER,
        /** Follows: applies its copied log up to the high watermark, takes no lookups. */
        FOLLOWER
    }

    private final TableBucket bucket;
    private final Path dbDir;
    private final LogBucket log;
    private final Clock clock;
    private final int[] keyPositions;
    private final KvKeys kvKeys;
    private final Schema keySchema;
    private final Options options;
    private final WriteOptions writeOptions;
    private final KvSnapshots snapshots;
    private final SnapshotLeases leases;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final long acknowledgementTimeoutMillis;

    /** Held to read {@link #db}, exclusively to replace or close it. */
    private final ReentrantReadWriteLock dbLock = new ReentrantReadWriteLock();

    private volatile RocksDB db;

    /** The log offset the state holds every change below (written under the write lock). */
    private volatile long appliedOffset;

    private volatile Role role = Role.SINGLE;

    /**
     * Where the last change applied here ends in the log (a write's, or a new leader's inherited
     * tail): set before the change is visible, so a lookup that sees it waits for its
     * acknowledgement ({@link LogBucket#acknowledged}).
     */
    private volatile long lastWriteEnd;

    private volatile RowCodec valueCodec;
    private volatile long lastSnapshotMillis;

    /**
     * Rebuilt when not current at the next {@link #catchUp} or {@link #lead}, on the thread of that
     * call, so that a change of role never waits for a rebuild.
     */
    private volatile KvStateHealth health = KvStateHealth.CURRENT;

    /** The log offset the restored state is consistent at; replay starts here. */
    private final long restoredOffset;

    private KvBucket(
            TableBucket bucket,
            Path kvDir,
            LogBucket log,
            Schema schema,
            Clock clock,
            long leaseTimeoutNanos,
            KvKeyEncoding preferredKeyEncoding,
            long acknowledgementTimeoutMillis) {
        this.bucket = bucket;
        this.acknowledgementTimeoutMillis = acknowledgementTimeoutMillis;
        this.dbDir = kvDir.resolve("db");
        this.log = log;
        this.clock = clock;
        this.keyPositions = schema.primaryKeyIndexes();
        List<Column> keyColumns =
                Arrays.stream(keyPositions).mapToObj(i -> schema.columns().get(i)).toList();
        this.keySchema = Schema.of(keyColumns, List.of());
        List<DataType> keyTypes = keyColumns.stream().map(Column::type).toList();
        this.valueCodec = RowCodec.of(schema);
        this.snapshots = KvSnapshots.open(bucket, kvDir.resolve("snapshots"));
        this.leases = new SnapshotLeases(bucket, clock, leaseTimeoutNanos, kvDir.resolve("leases"));
        this.options = newOptions();
        this.writeOptions = new WriteOptions().setDisableWAL(true);
        try {
            long offset = 0;
            RocksDB restored = null;
            KvKeyEncoding encoding = null;
            List<KvSnapshotInfo> newestLast = snapshots.list();
            for (int i = newestLast.size() - 1; i >= 0; i--) {
                KvSnapshotInfo snap = newestLast.get(i);
                if (snap.logOffset() < log.startOffset()) {
                    break; // this one and all older need log that retention deleted
                }
                restored = tryRestore(snap);
                if (restored != null) {
                    offset = snap.logOffset();
                    encoding = snapshots.keyEncodingOf(snap.snapshotId());
                    break;
                }
            }
            if (restored == null) {
                DurableFiles.deleteRecursively(dbDir);
                restored = RocksDB.open(options, dbDir.toString());
                // nothing stored yet: the state is rebuilt from the log in any encoding
                encoding = KvKeyEncoding.forNewState(preferredKeyEncoding, keyTypes);
            }
            this.kvKeys = new KvKeys(encoding, keyTypes);
            this.db = restored;
            this.restoredOffset = offset;
        } catch (IOException | RocksDBException | RuntimeException e) {
            options.close();
            writeOptions.close();
            if (e instanceof RuntimeException re) {
                throw re;
            }
            throw new StorageException(
                    "cannot open the KV state of bucket " + bucket + ": " + e, e);
        }
        this.lastSnapshotMillis = clock.currentTimeMillis();
    }

    /**
     * RocksDB tuned for this access pattern: every write first looks its keys up (half of them new
     * in a typical upsert stream), so bloom filters in the memtable and in table files turn misses
     * into cheap checks.
     */
    static Options newOptions() {
        BlockBasedTableConfig table =
                new BlockBasedTableConfig()
                        .setFilterPolicy(new BloomFilter(10, false))
                        .setWholeKeyFiltering(true);
        return new Options()
                .setCreateIfMissing(true)
                .setTableFormatConfig(table)
                .setMemtableWholeKeyFiltering(true)
                .setMemtablePrefixBloomSizeRatio(0.1)
                .setMaxBackgroundJobs(2);
    }

    /**
     * Opens the KV state in {@code kvDir}: restores the newest snapshot (or starts empty) and
     * replays {@code log} from the snapshot's offset.
     *
     * @param preferredKeyEncoding the RocksDB key encoding if the state starts empty (no usable
     *     snapshot) and the key types allow it; a restored state keeps its snapshot's encoding
     * @param acknowledgementTimeoutMillis {@link KvOptions#ACKNOWLEDGEMENT_TIMEOUT}
     */
    public static KvBucket open(
            TableBucket bucket,
            Path kvDir,
            LogBucket log,
            Schema schema,
            Clock clock,
            long leaseTimeoutNanos,
            KvKeyEncoding preferredKeyEncoding,
            long acknowledgementTimeoutMillis) {
        KvBucket kv =
                new KvBucket(
                        bucket,
                        kvDir,
                        log,
                        schema,
                        clock,
                        leaseTimeoutNanos,
                        preferredKeyEncoding,
                        acknowledgementTimeoutMillis);
        try {
            if (kv.restoredOffset > log.durableEndOffset()) {
                // a replica installed a snapshot copied from its leader (T53) and stopped before
                // its log started over at the snapshot's offset: the log's records are all below
                // the snapshot, which holds their changes; the restart is finished here
                LOG.warn(
                        "bucket {}: the KV state's snapshot is at offset {}, past the log's end"
                                + " {}: the log starts over there",
                        bucket,
                        kv.restoredOffset,
                        log.durableEndOffset());
                log.restartAt(
                        kv.restoredOffset,
                        new RetriableException("bucket " + bucket + " starts over"));
            }
            kv.appliedOffset = kv.replay(kv.restoredOffset, log.durableEndOffset());
            return kv;
        } catch (RuntimeException e) {
            kv.close();
            throw e;
        }
    }

    /**
     * Opens RocksDB on a copy of {@code snap}, or quarantines the snapshot and returns null if it
     * is damaged (files missing or resized, or RocksDB refuses it), so the caller can fall back to
     * an older snapshot or the log.
     */
    private RocksDB tryRestore(KvSnapshotInfo snap) throws IOException {
        DurableFiles.deleteRecursively(dbDir);
        Files.createDirectories(dbDir);
        try {
            snapshots.verify(snap.snapshotId());
            snapshots.keyEncodingOf(snap.snapshotId()); // an unknown one must not be opened
            Path source = snapshots.pathOf(snap.snapshotId());
            try (Stream<Path> files = Files.list(source)) {
                for (Path f : files.toList()) {
                    String name = f.getFileName().toString();
                    if (name.startsWith(KvSnapshots.META_FILE)) {
                        continue;
                    }
                    // table files are immutable, so links are safe and cheap; the rest RocksDB
                    // rewrites
                    if (name.endsWith(".sst")) {
                        Files.createLink(dbDir.resolve(name), f);
                    } else {
                        Files.copy(f, dbDir.resolve(name));
                    }
                }
            }
            return RocksDB.open(options, dbDir.toString());
        } catch (CorruptDataException | IOException | RocksDBException e) {
            snapshots.quarantine(snap.snapshotId(), String.valueOf(e.getMessage()));
            return null;
        }
    }

    /**
     * Applies the log's records in {@code [from, to)} (durable ones, acknowledged or not) to the
     * state; returns {@code to}.
     */
    private long replay(long from, long to) {
        long start = log.startOffset();
        long end = log.durableEndOffset();
        if (from < start || from > to || to > end) {
            throw new CorruptDataException(
                    "cannot recover the KV state of bucket "
                            + bucket
                            + ": it needs the log from offset "
                            + from
                            + " to "
                            + to
                            + " but the log holds ["
                            + start
                            + ", "
                            + end
                            + ")");
        }
        long offset = from;
        RowCodec codec = valueCodec;
        while (offset < to) {
            LogBucket.Read read = log.readForFollower(offset, 8 << 20);
            try (org.rocksdb.WriteBatch wb = new org.rocksdb.WriteBatch()) {
                for (LogBatch batch : LogBatches.of(read.records())) {
                    LogBatch.Cursor c = batch.cursor();
                    while (c.next()) {
                        if (c.offset() < offset || c.offset() >= to) {
                            continue;
                        }
                        ChangeType type = c.changeType();
                        if (type == ChangeType.UPDATE_BEFORE) {
                            continue;
                        }
                        byte[] key = kvKeys.encode(c.row(codec).project(keyPositions));
                        if (type == ChangeType.DELETE) {
                            wb.delete(key);
                        } else {
                            wb.put(
                                    key,
                                    Arrays.copyOfRange(
                                            c.rowBuffer(),
                                            c.rowOffset(),
                                            c.rowOffset() + c.rowLength()));
                        }
                    }
                }
                db.write(writeOptions, wb);
            } catch (RocksDBException e) {
                throw new StorageException(
                        "cannot replay the log into the KV state of bucket " + bucket + ": " + e,
                        e);
            }
            offset = Math.min(read.nextOffset(), to);
        }
        return to;
    }

    /** This replica's role, as {@link #lead} or {@link #follow} last set it. */
    public Role role() {
        return role;
    }

    /** The log offset the state holds every change below. */
    public long appliedOffset() {
        return appliedOffset;
    }

    /**
     * Makes this replica the bucket's leader: applies the rest of its log (what it copied past the
     * high watermark its old leader told it) before it takes a write. Call it before the log admits
     * appends.
     */
    public void lead() {
        changeState(
                () -> {
                    if (health.needsRebuild()) {
                        rebuild(log.durableEndOffset());
                    } else {
                        appliedOffset = replay(appliedOffset, log.durableEndOffset());
                    }
                    // what it copied past the old high watermark may not be on the others yet
                    lastWriteEnd = appliedOffset;
                    role = Role.LEADER;
                });
    }

    /**
     * Makes this replica a follower whose state will hold what is acknowledged only: if it applied
     * changes past {@code highWatermark} (it led, and nobody acknowledged its last writes; or it
     * replayed its whole log at a restart), the state is marked stale and rebuilt from its newest
     * snapshot and the log up to the high watermark at the next {@link #catchUp} (or {@link
     * #lead}). Returns at once: the rebuild costs a snapshot restore and a log replay, which the
     * caller (the metadata apply thread, changing many buckets' roles) must not wait for. A stale
     * state takes no lookups (it follows), no writes and no snapshots. Call it after the log
     * stopped admitting appends.
     */
    public void follow(long highWatermark) {
        changeState(
                () -> {
                    role = Role.FOLLOWER;
                    if (appliedOffset > highWatermark) {
                        health = health.stale();
                    }
                });
    }

    /**
     * Makes this replica a follower whose log restarted past what its state holds, at a snapshot
     * copied from its leader ({@link #snapshotTransfer}): the state is rebuilt from its newest
     * snapshot and the log up to {@code highWatermark}.
     */
    public void restartFollowing(long highWatermark) {
        changeState(
                () -> {
                    role = Role.FOLLOWER;
                    rebuild(Math.min(highWatermark, log.durableEndOffset()));
                });
    }

    /** Copies of this bucket's snapshots to and from other replicas (T53). */
    public KvSnapshotTransfer snapshotTransfer() {
        return new KvSnapshotTransfer(bucket, snapshots, leases, kvKeys.encoding(), clock);
    }

    /**
     * A follower's state takes the records its log holds below {@code highWatermark}, the leader's:
     * they are on every in-sync replica, so no failover takes them back. A state that failed
     * earlier is rebuilt first.
     */
    public void catchUp(long highWatermark) {
        changeState(
                () -> {
                    long to = Math.min(highWatermark, log.durableEndOffset());
                    if (health.needsRebuild()) {
                        rebuild(to);
                    } else if (to > appliedOffset) {
                        appliedOffset = replay(appliedOffset, to);
                    }
                });
    }

    /**
     * Runs a change of the state's role or content under the write lock; one that fails half way
     * leaves the state failed (writes, lookups and snapshots refused) until a rebuild.
     */
    private void changeState(Runnable change) {
        writeLock.lock();
        try {
            change.run();
        } catch (RuntimeException e) {
            health = KvStateHealth.FAILED;
            throw e;
        } finally {
            writeLock.unlock();
        }
    }

    private void checkNotFailed() {
        switch (health) {
            case FAILED ->
                    throw new StorageException(
                            "the KV state of bucket "
                                    + bucket
                                    + " failed earlier; reopen the table");
            case STALE ->
                    throw new NotLeaderForBucketException(
                            "bucket "
                                    + bucket
                                    + " is followed here, not led, and its KV state waits to be rebuilt");
            case CURRENT -> {}
        }
    }

    /**
     * Replaces the state by the newest intact snapshot plus the log up to {@code to} (or to the
     * snapshot, if it is later). Any snapshot will do: each is taken at an acknowledged offset, so
     * none holds a change a failover takes back, while the live state may.
     */
    private void rebuild(long to) {
        dbLock.writeLock().lock();
        try {
            db.close();
            RocksDB restored = null;
            long from = 0;
            List<KvSnapshotInfo> newestLast = snapshots.list();
            for (int i = newestLast.size() - 1; i >= 0 && restored == null; i--) {
                KvSnapshotInfo snap = newestLast.get(i);
                if (snap.logOffset() < log.startOffset()) {
                    break; // this one and all older need log that retention deleted
                }
                if (snapshots.keyEncodingOf(snap.snapshotId()) == kvKeys.encoding()) {
                    restored = tryRestore(snap);
                    from = snap.logOffset();
                }
            }
            if (restored == null) {
                from = log.startOffset();
                if (from > 0) {
                    throw new StorageException(
                            "cannot rebuild the KV state of bucket "
                                    + bucket
                                    + ": no intact snapshot, and the log starts at "
                                    + from);
                }
                DurableFiles.deleteRecursively(dbDir);
                restored = RocksDB.open(options, dbDir.toString());
            }
            db = restored;
            appliedOffset = replay(from, Math.max(from, to));
            health = KvStateHealth.CURRENT;
        } catch (IOException | RocksDBException e) {
            throw new StorageException(
                    "cannot rebuild the KV state of bucket " + bucket + ": " + e, e);
        } finally {
            dbLock.writeLock().unlock();
        }
    }

    /**
     * On a replicated leader, waits until the in-sync replicas acknowledged every write applied so
     * far (a no-op otherwise).
     *
     * @throws RetriableException if they did not in time, or this replica stopped leading
     */
    private void awaitAcknowledged() {
        long end = lastWriteEnd;
        if (role != Role.LEADER || log.endOffset() >= end) {
            return;
        }
        try {
            log.acknowledged(end).get(acknowledgementTimeoutMillis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (log.endOffset() >= end) {
                return; // acknowledged after all, with a later write
            }
            if (e.getCause() instanceof RetriableException r) {
                throw r;
            }
            throw new RetriableException(
                    "bucket " + bucket + ": the last write failed, retry: " + e.getCause(),
                    e.getCause());
        } catch (TimeoutException e) {
            throw new RetriableException(
                    "bucket "
                            + bucket
                            + ": its in-sync replicas did not acknowledge the last writes within "
                            + acknowledgementTimeoutMillis
                            + " ms; retry");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RetriableException("interrupted waiting for acknowledgements", e);
        }
    }

    public TableBucket bucket() {
        return bucket;
    }

    /** The RocksDB key encoding of this bucket's state and of the snapshots it takes. */
    public KvKeyEncoding keyEncoding() {
        return kvKeys.encoding();
    }

    /** Rows are decoded and written under this schema from now on (added columns only). */
    public void updateSchema(Schema schema) {
        this.valueCodec = RowCodec.of(schema);
    }

    /**
     * Turns checked upserts and deletes into changelog records, appends them to the log and applies
     * them to the KV state, all under the bucket's write lock so that each old row read is the
     * latest. A batch its writer already wrote (a retry, T42) is answered with its first offsets
     * and touches neither the log nor the KV state: the check runs under the same lock, before any
     * old row is read.
     *
     * @return the appended offsets ({@code durable} completes once the log is durable) and the
     *     deletes that found no row
     * @throws dev.tributary.common.exception.OutOfOrderSequenceException if the batch's sequence
     *     neither repeats nor follows its writer's last batch
     */
    public KvWritten write(KvWrites writes) {
        writeLock.lock();
        try {
            checkNotFailed();
            Optional<LogBucket.Appended> repeated =
                    log.duplicateOf(writes.writerId(), writes.sequence());
            if (repeated.isPresent()) {
                return new KvWritten(repeated.get(), repeated.get().details());
            }
            int n = writes.count();
            byte[][] encoded = new byte[n][];
            for (int i = 0; i < n; i++) {
                encoded[i] = kvKeys.fromRowCodec(writes.keys()[i]);
            }
            List<byte[]> keys = Arrays.asList(encoded);
            List<byte[]> stored = db.multiGetAsList(keys);
            Map<ByteBuffer, byte[]> pending = new HashMap<>();
            long ts = clock.currentTimeMillis();
            LogBatchBuilder builder =
                    new LogBatchBuilder(writes.schemaId(), writes.rowBuffer().length + n * 4)
                            .writer(writes.writerId(), writes.sequence());
            int[] absent = new int[0];
            int absentCount = 0;
            try (org.rocksdb.WriteBatch wb = new org.rocksdb.WriteBatch()) {
                for (int i = 0; i < n; i++) {
                    byte[] key = keys.get(i);
                    ByteBuffer k = ByteBuffer.wrap(key);
                    byte[] old = pending.containsKey(k) ? pending.get(k) : stored.get(i);
                    if (old == DELETED) {
                        old = null;
                    }
                    int off = writes.rowOffsets()[i];
                    int len = writes.rowLengths()[i];
                    if (writes.kinds()[i] == WriteKind.UPSERT) {
                        byte[] value = Arrays.copyOfRange(writes.rowBuffer(), off, off + len);
                        if (old == null) {
                            builder.addEncoded(ChangeType.INSERT, ts, value, 0, len);
                        } else {
                            builder.addEncoded(ChangeType.UPDATE_BEFORE, ts, old, 0, old.length);
                            builder.addEncoded(ChangeType.UPDATE_AFTER, ts, value, 0, len);
                        }
                        pending.put(k, value);
                        wb.put(key, value);
                    } else if (old != null) {
                        builder.addEncoded(ChangeType.DELETE, ts, old, 0, old.length);
                        pending.put(k, DELETED);
                        wb.delete(key);
                    } else {
                        // nothing to delete: no changelog record, but the writer is told
                        if (absentCount == absent.length) {
                            absent = Arrays.copyOf(absent, Math.max(4, absentCount * 2));
                        }
                        absent[absentCount++] = i;
                    }
                }
                int[] absentDeletes = Arrays.copyOf(absent, absentCount);
                if (builder.recordCount() == 0) {
                    return new KvWritten(
                            log.appendNothing(
                                    writes.writerId(), writes.sequence(), ts, absentDeletes),
                            absentDeletes);
                }
                LogBucket.Appended appended = log.append(builder.build(), absentDeletes);
                // before the changes are visible: a lookup that sees them waits for this
                lastWriteEnd = appended.endOffset();
                try {
                    db.write(writeOptions, wb);
                    appliedOffset = appended.endOffset();
                } catch (RocksDBException e) {
                    // the log already holds the change: only a replay can make them agree again
                    health = KvStateHealth.FAILED;
                    throw new StorageException(
                            "cannot apply changes to the KV state of bucket "
                                    + bucket
                                    + "; reopen the table to recover it from the log: "
                                    + e,
                            e);
                }
                return new KvWritten(appended, absentDeletes);
            }
        } catch (RocksDBException e) {
            throw new StorageException(
                    "cannot read the KV state of bucket " + bucket + ": " + e, e);
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * The current row for a key.
     *
     * @param key the primary-key values in key order
     */
    public Optional<Row> lookup(Row key) {
        try {
            keySchema.validate(key);
        } catch (InvalidInputException e) {
            throw new InvalidInputException(
                    "invalid lookup key for bucket " + bucket + ": " + e.getMessage(), e);
        }
        if (role == Role.FOLLOWER) {
            throw new NotLeaderForBucketException(
                    "bucket " + bucket + " is followed here, not led: look keys up at its leader");
        }
        byte[] value;
        dbLock.readLock().lock();
        try {
            checkNotFailed();
            value = db.get(kvKeys.encode(key));
        } catch (RocksDBException e) {
            throw new StorageException(
                    "cannot read the KV state of bucket " + bucket + ": " + e, e);
        } finally {
            dbLock.readLock().unlock();
        }
        // the row may come from a write the in-sync replicas do not have yet
        awaitAcknowledged();
        return value == null ? Optional.empty() : Optional.of(valueCodec.decode(value));
    }

    /**
     * Takes a snapshot consistent at the state's applied offset, unless the newest snapshot already
     * is. A replicated leader first waits until its in-sync replicas acknowledged that offset.
     *
     * @throws RetriableException if they did not in time
     */
    public KvSnapshotInfo snapshot(int numRetained) {
        KvSnapshotInfo info;
        writeLock.lock();
        try {
            checkNotFailed();
            long offset = appliedOffset;
            Optional<KvSnapshotInfo> latest = snapshots.latest();
            lastSnapshotMillis = clock.currentTimeMillis();
            if (latest.isPresent() && latest.get().logOffset() == offset) {
                return latest.get();
            }
            // a snapshot must never hold a change the log could still lose, here or by a failover
            log.flush();
            awaitAcknowledged();
            info =
                    snapshots.create(
                            offset,
                            clock.currentTimeMillis(),
                            kvKeys.encoding(),
                            target -> {
                                try (FlushOptions fo = new FlushOptions().setWaitForFlush(true);
                                        Checkpoint cp = Checkpoint.create(db)) {
                                    db.flush(fo);
                                    cp.createCheckpoint(target.toString());
                                }
                            });
        } finally {
            writeLock.unlock();
        }
        snapshots.retain(numRetained, leases);
        return info;
    }

    /** True if {@code intervalMillis} passed since the last snapshot and the state changed. */
    public boolean snapshotDue(long intervalMillis) {
        if (health.needsRebuild()
                || clock.currentTimeMillis() - lastSnapshotMillis < intervalMillis) {
            return false;
        }
        long latestOffset = snapshots.latest().map(KvSnapshotInfo::logOffset).orElse(0L);
        return appliedOffset > latestOffset;
    }

    public List<KvSnapshotInfo> snapshots() {
        return snapshots.list();
    }

    public Optional<KvSnapshotInfo> latestSnapshot() {
        return snapshots.latest();
    }

    public SnapshotLease lease(long snapshotId) {
        synchronized (snapshots) {
            snapshots.get(snapshotId);
            return leases.acquire(snapshotId);
        }
    }

    public SnapshotLease renewLease(long leaseId) {
        return leases.renew(leaseId);
    }

    public void releaseLease(long leaseId) {
        leases.release(leaseId);
    }

    /** Deletes snapshots beyond the newest {@code numRetained} that no live lease holds. */
    public int retainSnapshots(int numRetained) {
        return snapshots.retain(numRetained, leases);
    }

    /** Rows of a snapshot, decoded under the current schema. */
    public CloseableIterator<Row> readSnapshot(long snapshotId) {
        return readSnapshotEncoded(snapshotId).map(valueCodec::decode);
    }

    /**
     * Rows of a snapshot in the order of its RocksDB keys (the lake's key order if its {@link
     * KvKeyEncoding} is {@link KvKeyEncoding#ORDERED}), as stored: {@link RowCodec} bytes under the
     * current schema or an older one (narrower), for streaming without decoding (T54).
     */
    public CloseableIterator<byte[]> readSnapshotEncoded(long snapshotId) {
        snapshots.get(snapshotId);
        return new SnapshotReader(snapshots.pathOf(snapshotId));
    }

    @Override
    public void close() {
        writeLock.lock();
        dbLock.writeLock().lock();
        try {
            if (db != null) {
                db.close();
            }
            writeOptions.close();
            options.close();
        } finally {
            dbLock.writeLock().unlock();
            writeLock.unlock();
        }
    }
}
