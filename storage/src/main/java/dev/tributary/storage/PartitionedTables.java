package dev.tributary.storage;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.AlreadyExistsException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.PartitionNotFoundException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.io.DurableFiles;
import dev.tributary.common.record.PartitionRouter;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;

/**
 * The partitioned tables of a {@link BucketStore} and the lifecycle of their partitions (T30): each
 * partition's buckets live under {@code tables/<table id>/p<partition id>/}; a partition is created
 * or opened (recovered), sealed when it is being dropped (T33), dropped, and its writes are
 * recorded so that the tiering planner looks only at partitions that changed.
 *
 * <p>Locking: {@link #register}, {@link #remove}, {@link #create}, {@link #open}, {@link #drop},
 * {@link #deleteUnknown} and {@link #closeAll} change which partitions are open; the store calls
 * them under its own lock, the one that also guards its unpartitioned tables, so a table id is
 * never both. The other methods are safe from any thread.
 */
final class PartitionedTables {
    /** A partition's directory is this prefix and its id, in its table's directory. */
    static final String DIR_PREFIX = "p";

    private final LongFunction<Path> tableDir;
    private final LongFunction<RuntimeException> unknownTable;
    private final Configuration conf;
    private final Clock clock;
    private final Executor flushExecutor;
    private final Map<Long, PartitionedTable> tables = new ConcurrentHashMap<>();

    /**
     * @param tableDir the directory of a table's data
     * @param unknownTable the error for a table id that is not an open partitioned table (the store
     *     knows whether it is unpartitioned, unknown or the store is closed)
     */
    PartitionedTables(
            LongFunction<Path> tableDir,
            LongFunction<RuntimeException> unknownTable,
            Configuration conf,
            Clock clock,
            Executor flushExecutor) {
        this.tableDir = tableDir;
        this.unknownTable = unknownTable;
        this.conf = conf;
        this.clock = clock;
        this.flushExecutor = flushExecutor;
    }

    /** True if the table is an open partitioned table. */
    boolean contains(long tableId) {
        return tables.containsKey(tableId);
    }

    /**
     * Adds a partitioned table without partitions, or, for one already open, makes a newer schema
     * its current one. Creates the table's directory.
     */
    void register(long tableId, TableDescriptor descriptor, int schemaId, Schema schema) {
        PartitionedTable known = tables.get(tableId);
        if (known != null) {
            if (schemaId > known.schemaId) {
                updateSchema(tableId, schemaId, schema);
            }
            return;
        }
        StoreFiles.createDirectories(tableDir.apply(tableId));
        tables.put(tableId, new PartitionedTable(tableId, descriptor, schemaId, schema));
    }

    /**
     * Makes the schema current for every open partition and for partitions opened from now on.
     *
     * @return false if the table is not an open partitioned table (nothing done)
     */
    boolean updateSchema(long tableId, int schemaId, Schema schema) {
        PartitionedTable pt = tables.get(tableId);
        if (pt == null) {
            return false;
        }
        synchronized (pt) {
            for (Partition part : pt.partitions.values()) {
                part.store.updateSchema(schemaId, schema);
            }
            if (schemaId > pt.schemaId) {
                pt.schemaId = schemaId;
                pt.schema = schema;
            }
        }
        return true;
    }

    /** Forgets a partitioned table and closes its partitions; a no-op for an unknown one. */
    void remove(long tableId) {
        PartitionedTable pt = tables.remove(tableId);
        if (pt != null) {
            pt.closeAll();
        }
    }

    /** See {@link BucketStore#append(long, WriteBatch)}. */
    CompletableFuture<AppendResult> append(long partitionId, WriteBatch batch) {
        PartitionedTable pt = require(batch.tableId());
        Partition part = pt.partitions.get(partitionId);
        if (part == null) {
            throw new PartitionNotFoundException(
                    "partition id "
                            + partitionId
                            + " of table id "
                            + batch.tableId()
                            + " is not open in this store (dropped or never created)");
        }
        part.appending.incrementAndGet();
        try {
            if (part.sealed) {
                throw new PartitionNotFoundException(
                        "partition "
                                + part.spec.name()
                                + " (id "
                                + partitionId
                                + ") of table id "
                                + batch.tableId()
                                + " is being dropped and takes no more writes");
            }
            return part.store
                    .append(batch)
                    .thenApply(
                            r -> {
                                // after the end offset moved: the tiering planner drains this set
                                // before it reads end offsets, so it never misses the write
                                pt.changed.add(partitionId);
                                return r;
                            });
        } finally {
            part.appending.decrementAndGet();
        }
    }

    /** The buckets of an open partition. */
    TableStore store(long tableId, long partitionId) {
        Partition part = require(tableId).partitions.get(partitionId);
        if (part == null) {
            throw new NotFoundException(
                    "partition id "
                            + partitionId
                            + " of table id "
                            + tableId
                            + " is not open in this store (dropped or never created)");
        }
        return part.store;
    }

    /** The buckets of every open partition of every table. */
    List<TableStore> stores() {
        List<TableStore> out = new ArrayList<>();
        for (PartitionedTable pt : tables.values()) {
            for (Partition part : pt.partitions.values()) {
                out.add(part.store);
            }
        }
        return out;
    }

    /** See {@link BucketStore#createPartition}. */
    void create(long tableId, long partitionId, PartitionSpec spec) {
        PartitionedTable pt = require(tableId);
        Path dir = partitionDir(tableId, partitionId);
        if (pt.partitions.containsKey(partitionId) || Files.exists(dir)) {
            throw new AlreadyExistsException(
                    "partition id " + partitionId + " already has data in " + dir);
        }
        pt.partitions.put(partitionId, openStore(pt, partitionId, spec, dir));
    }

    /** See {@link BucketStore#openPartition}. */
    void open(long tableId, long partitionId, PartitionSpec spec) {
        PartitionedTable pt = require(tableId);
        if (pt.partitions.containsKey(partitionId)) {
            return;
        }
        pt.partitions.put(
                partitionId, openStore(pt, partitionId, spec, partitionDir(tableId, partitionId)));
        // recovered data may be past what was tiered: let the planner look at it
        pt.changed.add(partitionId);
    }

    private Partition openStore(
            PartitionedTable pt, long partitionId, PartitionSpec spec, Path dir) {
        if (partitionId < 0) {
            throw new InvalidInputException("partition id must be >= 0, got " + partitionId);
        }
        PartitionCheck check = new PartitionCheck(PartitionRouter.of(pt.descriptor), spec);
        TableStore store =
                TableStore.open(
                        dir,
                        pt.tableId,
                        partitionId,
                        check,
                        pt.descriptor,
                        pt.schemaId,
                        pt.schema,
                        conf,
                        clock,
                        flushExecutor);
        return new Partition(check.spec(), store);
    }

    /** See {@link BucketStore#sealPartition}. */
    boolean seal(long tableId, long partitionId) {
        Partition part = require(tableId).partitions.get(partitionId);
        if (part == null) {
            return true;
        }
        part.sealed = true;
        return part.appending.get() == 0;
    }

    /** See {@link BucketStore#dropPartition}. */
    void drop(long tableId, long partitionId) {
        PartitionedTable pt = tables.get(tableId);
        if (pt != null) {
            Partition part = pt.partitions.remove(partitionId);
            pt.changed.remove(partitionId);
            if (part != null) {
                part.store.close();
            }
        }
        try {
            DurableFiles.deleteRecursively(partitionDir(tableId, partitionId));
        } catch (IOException e) {
            throw new StorageException(
                    "cannot delete the data of partition "
                            + partitionId
                            + " of table "
                            + tableId
                            + ": "
                            + e,
                    e);
        }
    }

    /** True if the partition is open. */
    boolean contains(long tableId, long partitionId) {
        PartitionedTable pt = tables.get(tableId);
        return pt != null && pt.partitions.containsKey(partitionId);
    }

    /** Ids of the open partitions of a partitioned table, ascending. */
    List<Long> ids(long tableId) {
        return require(tableId).partitions.keySet().stream().sorted().toList();
    }

    /** See {@link BucketStore#deleteUnknownPartitions}. */
    List<Long> deleteUnknown(long tableId, Set<Long> known) {
        List<Long> deleted = new ArrayList<>();
        for (long id : StoreFiles.numberedDirectories(tableDir.apply(tableId), DIR_PREFIX)) {
            if (!known.contains(id)) {
                drop(tableId, id);
                deleted.add(id);
            }
        }
        return deleted;
    }

    /** See {@link BucketStore#drainChangedPartitions}. */
    Set<Long> drainChanged(long tableId) {
        PartitionedTable pt = tables.get(tableId);
        if (pt == null) {
            return Set.of();
        }
        Set<Long> out = new HashSet<>();
        for (Long id : pt.changed) {
            if (pt.changed.remove(id)) {
                out.add(id);
            }
        }
        return out;
    }

    /** Closes every partition of every table and forgets the tables. */
    /**
     * Closes every partition of every table and forgets the tables, going on past failures.
     *
     * @param first a failure from closing other tables, or null
     * @return {@code first}, or else the first failure here (later ones suppressed into it)
     */
    RuntimeException closeAll(RuntimeException first) {
        first = StoreFiles.closeEach(tables.values(), PartitionedTable::closeAll, first);
        tables.clear();
        return first;
    }

    private PartitionedTable require(long tableId) {
        PartitionedTable pt = tables.get(tableId);
        if (pt == null) {
            throw unknownTable.apply(tableId);
        }
        return pt;
    }

    private Path partitionDir(long tableId, long partitionId) {
        return tableDir.apply(tableId).resolve(DIR_PREFIX + partitionId);
    }

    /** A partitioned table: its definition (for new partitions) and its open partitions. */
    private static final class PartitionedTable {
        final long tableId;
        final TableDescriptor descriptor;
        volatile int schemaId;
        volatile Schema schema;
        final Map<Long, Partition> partitions = new ConcurrentHashMap<>();
        final Set<Long> changed = ConcurrentHashMap.newKeySet();

        PartitionedTable(long tableId, TableDescriptor descriptor, int schemaId, Schema schema) {
            this.tableId = tableId;
            this.descriptor = descriptor;
            this.schemaId = schemaId;
            this.schema = schema;
        }

        void closeAll() {
            RuntimeException first =
                    StoreFiles.closeEach(partitions.values(), p -> p.store.close(), null);
            partitions.clear();
            if (first != null) {
                throw first;
            }
        }
    }

    /** One open partition: its buckets and whether it still takes writes. */
    private static final class Partition {
        final PartitionSpec spec;
        final TableStore store;
        volatile boolean sealed;
        final AtomicInteger appending = new AtomicInteger();

        Partition(PartitionSpec spec, TableStore store) {
            this.spec = spec;
            this.store = store;
        }
    }
}
