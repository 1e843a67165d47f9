package dev.tributary.server.lake;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.index.LakeRowLocation;
import dev.tributary.lake.api.index.LakeRowScanner;
import dev.tributary.server.store.TableCatalog;
import dev.tributary.storage.lakeindex.LakeRowIndex;
import dev.tributary.storage.lakeindex.LakeRowIndex.IndexedSnapshot;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers a tiering writer's "where are these keys' live lake rows" (T48) from the store's {@link
 * LakeRowIndex}, after bringing the bucket's index to the writer's lake snapshot: it reads the rows
 * of the bucket's data files that are new since the snapshot the index describes, or, when it
 * describes none (never built, or an update cut off by a crash) or one the writer's snapshot does
 * not descend from (a rollback, history rewritten by another engine), all of the bucket's files.
 *
 * <p>The index thus only ever holds committed lake state: a round that fails or is fenced changes
 * nothing in it, and a round's rows enter it when the next round (or compaction) reads the snapshot
 * that committed them. Calls for one bucket are serialized; the tiering job asks once per split.
 */
public final class LakeRowLocations {
    private static final Logger LOG = LoggerFactory.getLogger(LakeRowLocations.class);
    private static final int LOCK_STRIPES = 64;

    /** At most this many keys per call, so a request's allocation stays bounded. */
    public static final int MAX_KEYS = 100_000;

    private final Supplier<LakeRowIndex> indexes;
    private final BiFunction<TablePath, TableDescriptor, Optional<LakeRowScanner>> scanners;
    private final TableCatalog catalog;
    private final Function<TableInfo, List<PartitionInfo>> partitions;
    private final Clock clock;
    private final ReentrantLock[] locks = new ReentrantLock[LOCK_STRIPES];

    /**
     * @param index the store's lake row index (opened on first use)
     * @param scanners opens a table's row scanner ({@link LakeStorage#createRowScanner})
     * @param partitions the partitions of a partitioned table
     */
    public LakeRowLocations(
            Supplier<LakeRowIndex> index,
            BiFunction<TablePath, TableDescriptor, Optional<LakeRowScanner>> scanners,
            TableCatalog catalog,
            Function<TableInfo, List<PartitionInfo>> partitions,
            Clock clock) {
        this.indexes = index;
        this.scanners = scanners;
        this.catalog = catalog;
        this.partitions = partitions;
        this.clock = clock;
        for (int i = 0; i < LOCK_STRIPES; i++) {
            locks[i] = new ReentrantLock();
        }
    }

    /**
     * The live lake row of each key at {@code snapshotId}, null for a key without one; empty when
     * the table's lake format or mode keeps no index (Paimon, {@code table.datalake.pk-deletes =
     * equality}).
     *
     * @throws NotFoundException when the table or partition is unknown
     * @throws InvalidInputException on too many keys, a bucket outside the table, a table without a
     *     primary key or lake
     */
    public Optional<LakeRowLocation[]> locate(
            TableBucket bucket, long snapshotId, List<byte[]> keys) {
        if (keys.size() > MAX_KEYS) {
            throw new InvalidInputException(
                    "at most " + MAX_KEYS + " keys per lake row lookup, got " + keys.size());
        }
        TableInfo table =
                catalog.find(bucket.tableId())
                        .orElseThrow(
                                () ->
                                        new NotFoundException(
                                                "no table with id " + bucket.tableId()));
        if (!table.descriptor().hasPrimaryKey() || !table.lakeEnabled()) {
            throw new InvalidInputException(
                    table.path() + " is not a lake-enabled primary-key table");
        }
        if (bucket.bucket() < 0 || bucket.bucket() >= table.descriptor().bucketCount()) {
            throw new InvalidInputException("no bucket " + bucket.bucket() + " in " + table.path());
        }
        PartitionSpec partition = partitionOf(table, bucket);
        ReentrantLock lock = locks[Math.floorMod(bucket.hashCode(), LOCK_STRIPES)];
        lock.lock();
        try (LakeRowScanner scanner =
                scanners.apply(table.path(), table.descriptor()).orElse(null)) {
            if (scanner == null) {
                return Optional.empty();
            }
            LakeRowIndex index = indexes.get();
            catchUp(index, bucket, snapshotId, partition, scanner);
            LakeRowIndex.RowLocation[] found = index.lookup(bucket, keys);
            LakeRowLocation[] out = new LakeRowLocation[found.length];
            for (int i = 0; i < found.length; i++) {
                if (found[i] != null) {
                    out[i] = new LakeRowLocation(found[i].file(), found[i].position());
                }
            }
            return Optional.of(out);
        } finally {
            lock.unlock();
        }
    }

    /** Makes the bucket's index describe {@code snapshotId}. */
    private void catchUp(
            LakeRowIndex index,
            TableBucket bucket,
            long snapshotId,
            PartitionSpec partition,
            LakeRowScanner scanner) {
        Optional<IndexedSnapshot> indexed = index.indexed(bucket);
        if (indexed.isPresent() && indexed.get().snapshotId() == snapshotId) {
            return;
        }
        long since = indexed.map(IndexedSnapshot::snapshotId).orElse(-1L);
        long start = clock.nanoTime();
        LakeRowScanner.BucketFiles files =
                scanner.bucketFiles(snapshotId, partition, bucket.bucket(), since);
        boolean rebuild = indexed.isEmpty() || !files.descendsFromSince();
        List<String> toRead = new ArrayList<>(files.files());
        if (!rebuild) {
            Set<String> known = new HashSet<>(indexed.get().files());
            toRead.removeIf(known::contains);
        }
        long[] rows = {0};
        try (LakeRowIndex.Update update = index.beginUpdate(bucket, rebuild)) {
            scanner.scan(
                    snapshotId,
                    partition,
                    bucket.bucket(),
                    toRead,
                    (key, at) -> {
                        update.put(key, at.file(), at.position());
                        rows[0]++;
                    });
            update.commit(snapshotId, files.files());
        }
        long millis = (clock.nanoTime() - start) / 1_000_000;
        if (rebuild) {
            LOG.info(
                    "built the lake row index of {} at lake snapshot {}: {} rows of {} files in {}"
                            + " ms",
                    bucket,
                    snapshotId,
                    rows[0],
                    toRead.size(),
                    millis);
        } else {
            LOG.debug(
                    "lake row index of {} follows lake snapshot {}: {} rows of {} new files in {}"
                            + " ms",
                    bucket,
                    snapshotId,
                    rows[0],
                    toRead.size(),
                    millis);
        }
    }

    private PartitionSpec partitionOf(TableInfo table, TableBucket bucket) {
        if (!table.descriptor().isPartitioned()) {
            if (bucket.partitionId() != TableBucket.NO_PARTITION) {
                throw new InvalidInputException(table.path() + " is not partitioned");
            }
            return null;
        }
        for (PartitionInfo p : partitions.apply(table)) {
            if (p.partitionId() == bucket.partitionId()) {
                return p.spec();
            }
        }
        throw new NotFoundException(
                "no partition with id " + bucket.partitionId() + " in " + table.path());
    }
}
