package dev.tributary.storage;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.MemorySize;
import dev.tributary.common.config.TableOptions;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.io.BinaryWriter;
import dev.tributary.common.io.DurableFiles;
import dev.tributary.common.record.LogBatchBuilder;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.record.WriteKind;
import dev.tributary.common.row.BucketFunction;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.storage.kv.KvBucket;
import dev.tributary.storage.kv.KvKeyEncoding;
import dev.tributary.storage.kv.KvOptions;
import dev.tributary.storage.kv.KvWrites;
import dev.tributary.storage.kv.KvWritten;
import dev.tributary.storage.log.LogBucket;
import dev.tributary.storage.log.LogOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.Stream;

/**
 * The buckets of one table, or of one partition of a partitioned table (each partition has the
 * table's bucket count, T30), and the checks that turn a write batch into log and KV writes.
 */
final class TableStore implements AutoCloseable {
    /** A schema and its id. */
    record SchemaVersion(int id, Schema schema) {}

    /** One bucket: its log, its KV state for a primary-key table, and its tiered offset. */
    static final class Bucket {
        final TableBucket id;
        final LogBucket log;
        final KvBucket kv;
        volatile long tieredOffset = -1;

        Bucket(TableBucket id, LogBucket log, KvBucket kv) {
            this.id = id;
            this.log = log;
            this.kv = kv;
        }
    }

    /**
     * Opens (recovers, or creates empty) one bucket's log and KV state in the table's directory.
     */
    private record BucketOpener(
            Path tableDir,
            LogBucket.Config logConfig,
            Executor flushExecutor,
            Clock clock,
            long leaseNanos,
            KvKeyEncoding keyEncoding,
            long acknowledgementMillis) {

        Bucket open(TableBucket tb, Schema schema) {
            Path dir = tableDir.resolve(Integer.toString(tb.bucket()));
            LogBucket log = LogBucket.open(tb, dir.resolve("log"), logConfig, flushExecutor);
            KvBucket kv = null;
            try {
                if (schema.hasPrimaryKey()) {
                    kv =
                            KvBucket.open(
                                    tb,
                                    dir.resolve("kv"),
                                    log,
                                    schema,
                                    clock,
                                    leaseNanos,
                                    keyEncoding,
                                    acknowledgementMillis);
                }
            } catch (RuntimeException e) {
                log.close();
                throw e;
            }
            return new Bucket(tb, log, kv);
        }
    }

    /** A bucket's directory being deleted: renamed first, so a crash never leaves half a log. */
    private static final String DELETING = ".deleting";

    final long tableId;
    final long partitionId;
    final TableDescriptor descriptor;
    final Configuration conf;
    private final Clock clock;
    private final BucketOpener opener;

    /** Replaced only by {@link #resetBucket}, so reads see the new bucket once it is there. */
    private final AtomicReferenceArray<Bucket> buckets;

    private volatile SchemaVersion current;

    /** Null for a log table without bucket keys (batches may go to any bucket). */
    private final BucketFunction routing;

    private final int[] routingKeys;

    /** Null for an unpartitioned table: every record must carry this partition's values. */
    private final PartitionCheck partitionCheck;

    private TableStore(
            long tableId,
            long partitionId,
            PartitionCheck partitionCheck,
            TableDescriptor descriptor,
            Configuration conf,
            Clock clock,
            BucketOpener opener,
            SchemaVersion current,
            Bucket[] buckets) {
        this.tableId = tableId;
        this.partitionId = partitionId;
        this.partitionCheck = partitionCheck;
        this.descriptor = descriptor;
        this.conf = conf;
        this.clock = clock;
        this.opener = opener;
        this.current = current;
        this.buckets = new AtomicReferenceArray<>(buckets);
        this.routing = descriptor.bucketKeys().isEmpty() ? null : BucketFunction.of(descriptor);
        this.routingKeys = routing == null ? null : routing.keyPositions();
    }

    static TableStore open(
            Path tableDir,
            long tableId,
            long partitionId,
            PartitionCheck partitionCheck,
            TableDescriptor descriptor,
            int schemaId,
            Schema schema,
            Configuration storeConf,
            Clock clock,
            Executor flushExecutor) {
        checkSchema(descriptor, schema);
        Configuration conf = new Configuration(storeConf.toMap());
        descriptor.properties().forEach(conf::setString);
        // fail on a bad table option now, not at the first retention pass
        conf.get(TableOptions.LOG_TTL);
        conf.get(TableOptions.LOG_RETENTION_SIZE);
        conf.get(TableOptions.DATALAKE_ENABLED);
        conf.get(KvOptions.SNAPSHOT_INTERVAL);
        conf.get(KvOptions.SNAPSHOT_NUM_RETAINED);
        LogBucket.Config logConfig =
                new LogBucket.Config(
                        conf.get(LogOptions.SEGMENT_SIZE).bytes(),
                        (int) conf.get(LogOptions.INDEX_INTERVAL).bytes(),
                        conf.get(LogOptions.FLUSH_POLICY),
                        conf.get(LogOptions.WRITER_STATE_EXPIRATION).toMillis());
        BucketOpener opener =
                new BucketOpener(
                        tableDir,
                        logConfig,
                        flushExecutor,
                        clock,
                        conf.get(KvOptions.LEASE_TIMEOUT).toNanos(),
                        conf.get(KvOptions.KEY_ENCODING),
                        conf.get(KvOptions.ACKNOWLEDGEMENT_TIMEOUT).toMillis());
        deleteLeftovers(tableDir);
        Bucket[] buckets = new Bucket[descriptor.bucketCount()];
        try {
            for (int b = 0; b < buckets.length; b++) {
                buckets[b] = opener.open(new TableBucket(tableId, partitionId, b), schema);
            }
        } catch (RuntimeException e) {
            for (Bucket b : buckets) {
                if (b != null) {
                    closeBucket(b);
                }
            }
            throw e;
        }
        return new TableStore(
                tableId,
                partitionId,
                partitionCheck,
                descriptor,
                conf,
                clock,
                opener,
                new SchemaVersion(schemaId, schema),
                buckets);
    }

    /** Finishes the deletions {@link #resetBucket} started before a crash. */
    private static void deleteLeftovers(Path tableDir) {
        if (!Files.isDirectory(tableDir)) {
            return;
        }
        try (Stream<Path> entries = Files.list(tableDir)) {
            for (Path p :
                    entries.filter(e -> e.getFileName().toString().contains(DELETING)).toList()) {
                DurableFiles.deleteRecursively(p);
            }
        } catch (IOException e) {
            throw new StorageException("cannot clean up " + tableDir + ": " + e, e);
        }
    }

    /**
     * Deletes one bucket's log and KV state and opens it again empty: a bucket whose replicas moved
     * to other servers while this server keeps other buckets of the table. Its directory is renamed
     * before it is deleted (and the rename made durable), so a crash leaves either the whole old
     * bucket or none of it; the next open finishes the deletion. Requests that still hold the old
     * bucket fail as on a closed one.
     */
    synchronized void resetBucket(int bucket) {
        Bucket old = bucket(bucket);
        Path dir = opener.tableDir().resolve(Integer.toString(bucket));
        Path doomed = opener.tableDir().resolve(bucket + DELETING + "-" + System.nanoTime());
        closeBucket(old);
        try {
            if (Files.exists(dir)) {
                Files.move(dir, doomed, StandardCopyOption.ATOMIC_MOVE);
                DurableFiles.syncDirectory(opener.tableDir());
                DurableFiles.deleteRecursively(doomed);
            }
        } catch (IOException e) {
            throw new StorageException(
                    "cannot delete the data of bucket " + old.id + " in " + dir + ": " + e, e);
        } finally {
            // also when the deletion failed: the bucket stays open, with its old data or none
            buckets.set(bucket, opener.open(old.id, current.schema()));
        }
    }

    private static void checkSchema(TableDescriptor descriptor, Schema schema) {
        if (!schema.primaryKey().equals(descriptor.schema().primaryKey())) {
            throw new InvalidInputException(
                    "schema primary key "
                            + schema.primaryKey()
                            + " differs from the table's "
                            + descriptor.schema().primaryKey());
        }
    }

    SchemaVersion currentSchema() {
        return current;
    }

    synchronized void updateSchema(int schemaId, Schema schema) {
        SchemaVersion now = current;
        if (schemaId < now.id()) {
            throw new InvalidInputException(
                    "schema id "
                            + schemaId
                            + " is older than table "
                            + tableId
                            + "'s current schema id "
                            + now.id());
        }
        checkSchema(descriptor, schema);
        int oldCount = now.schema().fieldCount();
        if (schema.fieldCount() < oldCount
                || !schema.columns().subList(0, oldCount).equals(now.schema().columns())) {
            throw new InvalidInputException(
                    "schema "
                            + schemaId
                            + " of table "
                            + tableId
                            + " must keep the existing columns "
                            + now.schema()
                            + " and only add nullable ones at the end");
        }
        for (Bucket b : buckets()) {
            if (b.kv != null) {
                b.kv.updateSchema(schema);
            }
        }
        current = new SchemaVersion(schemaId, schema);
    }

    Bucket bucket(int bucket) {
        if (bucket < 0 || bucket >= buckets.length()) {
            throw new InvalidInputException(
                    "bucket "
                            + bucket
                            + " does not exist: table "
                            + tableId
                            + " has "
                            + buckets.length()
                            + " buckets (0.."
                            + (buckets.length() - 1)
                            + ")");
        }
        return buckets.get(bucket);
    }

    List<Bucket> buckets() {
        List<Bucket> all = new ArrayList<>(buckets.length());
        for (int b = 0; b < buckets.length(); b++) {
            all.add(buckets.get(b));
        }
        return all;
    }

    CompletableFuture<AppendResult> append(WriteBatch batch) {
        SchemaVersion sv = current;
        Bucket b = bucket(batch.bucket());
        if (batch.schemaId() != sv.id()) {
            throw new InvalidInputException(
                    "write batch for table "
                            + tableId
                            + " is encoded under schema id "
                            + batch.schemaId()
                            + " but the table's current schema id is "
                            + sv.id()
                            + "; refresh the table's schema and re-encode the rows");
        }
        LogBucket.Appended appended;
        int[] absentDeletes = AppendResult.NONE;
        if (b.kv == null) {
            appended = appendLog(b, batch, sv);
        } else {
            KvWritten written = writeKv(b, batch, sv);
            appended = written == null ? null : written.appended();
            absentDeletes = written == null ? AppendResult.NONE : written.absentDeletes();
        }
        if (appended == null) {
            appended =
                    b.log.appendNothing(
                            batch.writerId(),
                            batch.sequence(),
                            clock.currentTimeMillis(),
                            AppendResult.NONE);
        }
        long base = appended.baseOffset();
        long end = appended.endOffset();
        int[] absent = absentDeletes;
        boolean duplicate = appended.duplicate();
        return appended.durable()
                .thenApply(v -> new AppendResult(b.id, base, end, absent, duplicate));
    }

    private LogBucket.Appended appendLog(Bucket b, WriteBatch batch, SchemaVersion sv) {
        WriteBatch.Reader r = batch.reader(sv.schema());
        LogBatchBuilder builder =
                new LogBatchBuilder(sv.id(), batch.sizeInBytes() + 2 * batch.recordCount())
                        .writer(batch.writerId(), batch.sequence());
        long ts = clock.currentTimeMillis();
        BinaryWriter scratch =
                routing == null && partitionCheck == null ? null : new BinaryWriter(32);
        // every record is checked before the log sees any of them
        while (r.next()) {
            checkRouting(r, batch.bucket(), scratch);
            builder.addEncoded(
                    ChangeType.APPEND_ONLY, ts, r.rowBuffer(), r.rowOffset(), r.rowLength());
        }
        if (builder.recordCount() == 0) {
            return null;
        }
        return b.log.append(builder.build(), AppendResult.NONE);
    }

    private KvWritten writeKv(Bucket b, WriteBatch batch, SchemaVersion sv) {
        int n = batch.recordCount();
        WriteKind[] kinds = new WriteKind[n];
        byte[][] keys = new byte[n][];
        int[] offsets = new int[n];
        int[] lengths = new int[n];
        WriteBatch.Reader r = batch.reader(sv.schema());
        BinaryWriter key = new BinaryWriter(32);
        BinaryWriter scratch = new BinaryWriter(32);
        int i = 0;
        while (r.next()) {
            checkRouting(r, batch.bucket(), scratch);
            kinds[i] = r.kind();
            key.reset();
            r.writeKey(key);
            keys[i] = key.toByteArray();
            offsets[i] = r.rowOffset();
            lengths[i] = r.rowLength();
            i++;
        }
        if (n == 0) {
            return null;
        }
        return b.kv.write(
                new KvWrites(
                        sv.id(),
                        n,
                        kinds,
                        keys,
                        batch.toBytes(),
                        offsets,
                        lengths,
                        batch.writerId(),
                        batch.sequence()));
    }

    /**
     * A key must live in exactly one bucket, or lookups, the KV state and the lake copy would
     * disagree; so a record whose bucket key hashes elsewhere (by the table's own bucket function,
     * T36) is refused before anything is written.
     */
    private void checkRouting(WriteBatch.Reader r, int bucket, BinaryWriter scratch) {
        if (partitionCheck != null) {
            partitionCheck.check(r, scratch, tableId);
        }
        if (routing == null) {
            return;
        }
        scratch.reset();
        r.writeProjection(routingKeys, scratch);
        int expected = routing.bucketOfEncoded(scratch.buffer(), scratch.position());
        if (expected != bucket) {
            throw new InvalidInputException(
                    "record "
                            + r.index()
                            + " of the write batch for table "
                            + tableId
                            + " belongs to bucket "
                            + expected
                            + " by the table's "
                            + routing.type().value()
                            + " bucket function over its bucket key "
                            + descriptor.bucketKeys()
                            + ", not to bucket "
                            + bucket
                            + "; route rows with BucketRouter");
        }
    }

    Optional<Row> lookup(int bucket, Row key) {
        Bucket b = bucket(bucket);
        if (b.kv == null) {
            throw new InvalidInputException(
                    "table " + tableId + " is a log table; lookups need a primary-key table");
        }
        return b.kv.lookup(key);
    }

    KvBucket kv(int bucket) {
        Bucket b = bucket(bucket);
        if (b.kv == null) {
            throw new InvalidInputException(
                    "table "
                            + tableId
                            + " is a log table; KV snapshots exist only for primary-key tables");
        }
        return b.kv;
    }

    RetentionResult runRetention() {
        long now = clock.currentTimeMillis();
        long ttlMillis = conf.get(TableOptions.LOG_TTL).toMillis();
        Optional<MemorySize> sizeLimit = conf.getOptional(TableOptions.LOG_RETENTION_SIZE);
        boolean lake = conf.get(TableOptions.DATALAKE_ENABLED);
        int numRetained = conf.get(KvOptions.SNAPSHOT_NUM_RETAINED);
        RetentionResult total = new RetentionResult(0, 0, 0);
        for (Bucket b : buckets()) {
            b.log.expireWriters(now);
            // never past the high watermark: an in-sync replica may not have the records above it
            // yet (T50), and a log's start never passes its acknowledged end
            long gate = b.log.endOffset();
            if (lake) {
                gate = Math.min(gate, Math.max(0, b.tieredOffset));
            }
            int snapshotsDeleted = 0;
            if (b.kv != null) {
                snapshotsDeleted = b.kv.retainSnapshots(numRetained);
                // recovery replays the log from the newest intact snapshot, falling back to older
                // ones if it is damaged: keep the log from the oldest one still kept
                long snap =
                        b.kv.snapshots().stream().mapToLong(s -> s.logOffset()).min().orElse(0L);
                gate = Math.min(gate, snap);
            }
            long size = b.log.sizeInBytes();
            long newStart = -1;
            List<LogBucket.SegmentInfo> sealed = new ArrayList<>(b.log.sealedSegments());
            for (LogBucket.SegmentInfo s : sealed) {
                boolean expired = s.maxTimestamp() < now - ttlMillis;
                boolean oversize = sizeLimit.isPresent() && size > sizeLimit.get().bytes();
                if (!(expired || oversize) || s.nextOffset() > gate) {
                    break;
                }
                newStart = s.nextOffset();
                size -= s.sizeInBytes();
            }
            long bytes = newStart > 0 ? b.log.deleteSegmentsBefore(newStart) : 0;
            int segs = 0;
            for (LogBucket.SegmentInfo s : sealed) {
                if (s.nextOffset() <= newStart) {
                    segs++;
                }
            }
            total = total.plus(new RetentionResult(segs, bytes, snapshotsDeleted));
        }
        return total;
    }

    @Override
    public void close() {
        RuntimeException first = StoreFiles.closeEach(buckets(), TableStore::closeBucket, null);
        if (first != null) {
            throw first;
        }
    }

    private static void closeBucket(Bucket b) {
        try {
            if (b.kv != null) {
                b.kv.close();
            }
        } finally {
            b.log.close();
        }
    }
}
