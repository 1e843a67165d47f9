package dev.tributary.coordinator.metadata;

import dev.tributary.common.exception.AlreadyExistsException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.PartitionNotFoundException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.record.PartitionRouter;
import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.store.MetadataStore;
import dev.tributary.coordinator.store.StoredState;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The partitions of partitioned tables (T30): ids, values, states. Ids are unique over all tables
 * and never reused (the high mark is durable), so a dropped and re-added partition never shares
 * buckets, offsets or tiering records with its predecessor. A name belongs to at most one partition
 * at a time: a partition being dropped (T33) keeps its name until it is removed.
 *
 * <p>Every change is durable before it is visible. Mutations run on the coordinator's event loop;
 * the lookups are lock-free and may be called from any thread (the write path).
 */
public final class PartitionRegistry {
    private final MetadataStore store;
    private final Clock clock;
    private final Map<Long, TablePartitions> byTable = new ConcurrentHashMap<>();
    private long maxPartitionId;

    public PartitionRegistry(MetadataStore store, Clock clock, StoredState state) {
        this.store = store;
        this.clock = clock;
        for (PartitionInfo p : state.partitions().values()) {
            of(p.tableId()).put(p);
        }
        this.maxPartitionId = state.maxPartitionId();
    }

    /** The result of an ADD PARTITION: the partition and whether this call created it. */
    public record Created(PartitionInfo partition, boolean created) {}

    /**
     * Adds a partition with the next partition id.
     *
     * @throws InvalidInputException if the table is not partitioned or the values do not fit its
     *     partition columns, or the partition is being dropped
     * @throws AlreadyExistsException if it exists and {@code !ignoreIfExists}
     */
    public Created create(TableInfo table, PartitionSpec spec, boolean ignoreIfExists) {
        PartitionSpec canonical = normalize(table, spec);
        PartitionInfo existing = of(table.tableId()).byName.get(canonical.name());
        if (existing != null) {
            if (existing.isDropping()) {
                throw new InvalidInputException(
                        "partition "
                                + canonical
                                + " of table "
                                + table.path()
                                + " is being dropped: it goes once it is tiered to the lake; add"
                                + " it again after that");
            }
            if (ignoreIfExists) {
                return new Created(existing, false);
            }
            throw new AlreadyExistsException(
                    "partition "
                            + canonical
                            + " of table "
                            + table.path()
                            + " already exists; use IF NOT EXISTS to ignore");
        }
        PartitionInfo p =
                PartitionInfo.create(
                        table.tableId(), maxPartitionId + 1, canonical, clock.currentTimeMillis());
        store.putPartition(p);
        maxPartitionId = p.partitionId();
        of(table.tableId()).put(p);
        return new Created(p, true);
    }

    /**
     * Marks a partition DROPPING (T33); idempotent for one that already is, except that a later
     * request may add {@code dropLake}.
     *
     * @return the partition in its new state; empty if it does not exist and {@code
     *     ignoreIfNotExists}
     */
    public Optional<PartitionInfo> markDropping(
            TableInfo table, PartitionSpec spec, boolean ignoreIfNotExists, boolean dropLake) {
        PartitionSpec canonical = normalize(table, spec);
        PartitionInfo p = of(table.tableId()).byName.get(canonical.name());
        if (p == null) {
            if (ignoreIfNotExists) {
                return Optional.empty();
            }
            throw new PartitionNotFoundException(
                    "partition " + canonical + " of table " + table.path() + " does not exist");
        }
        PartitionInfo next;
        if (p.isDropping()) {
            if (!dropLake || p.dropLakePartition()) {
                return Optional.of(p);
            }
            next = p.withDropLakePartition();
        } else {
            next = p.dropping(clock.currentTimeMillis(), dropLake);
        }
        store.putPartition(next);
        of(table.tableId()).put(next);
        return Optional.of(next);
    }

    /**
     * Removes a partition from the metadata (its data is the store's to delete).
     *
     * @return the removed partition, empty if it was not registered
     */
    public Optional<PartitionInfo> remove(long tableId, long partitionId) {
        TablePartitions t = byTable.get(tableId);
        PartitionInfo p = t == null ? null : t.byId.get(partitionId);
        if (p == null) {
            return Optional.empty();
        }
        store.removePartition(tableId, partitionId);
        t.remove(p);
        return Optional.of(p);
    }

    /** Forgets a dropped table's partitions (the store removed them with the table). */
    public void forgetTable(long tableId) {
        byTable.remove(tableId);
    }

    /** Thread safe. The table's partitions by name. */
    public List<PartitionInfo> list(long tableId) {
        TablePartitions t = byTable.get(tableId);
        if (t == null) {
            return List.of();
        }
        return t.byId.values().stream().sorted(Comparator.comparing(PartitionInfo::name)).toList();
    }

    /** Thread safe. The table's partitions, in no particular order. */
    public Collection<PartitionInfo> partitions(long tableId) {
        TablePartitions t = byTable.get(tableId);
        return t == null ? List.of() : t.byId.values();
    }

    /** Thread safe. */
    public Optional<PartitionInfo> byName(long tableId, String name) {
        TablePartitions t = byTable.get(tableId);
        return t == null ? Optional.empty() : Optional.ofNullable(t.byName.get(name));
    }

    /** Thread safe. */
    public Optional<PartitionInfo> byId(long tableId, long partitionId) {
        TablePartitions t = byTable.get(tableId);
        return t == null ? Optional.empty() : Optional.ofNullable(t.byId.get(partitionId));
    }

    public int count(long tableId) {
        TablePartitions t = byTable.get(tableId);
        return t == null ? 0 : t.byId.size();
    }

    public long maxPartitionId() {
        return maxPartitionId;
    }

    private static PartitionSpec normalize(TableInfo table, PartitionSpec spec) {
        if (!table.descriptor().isPartitioned()) {
            throw new InvalidInputException(
                    "table " + table.path() + " is not partitioned; it has no partitions");
        }
        return PartitionRouter.of(table.descriptor()).normalize(spec);
    }

    private TablePartitions of(long tableId) {
        return byTable.computeIfAbsent(tableId, id -> new TablePartitions());
    }

    /** Checks {@code name} against a table; used by lookups that take a name from outside. */
    public static NotFoundException notFound(TableInfo table, String name) {
        return new PartitionNotFoundException(
                "partition " + name + " of table " + table.path() + " does not exist");
    }

    /** One table's partitions, by id and by name. */
    private static final class TablePartitions {
        final Map<Long, PartitionInfo> byId = new ConcurrentHashMap<>();
        final Map<String, PartitionInfo> byName = new ConcurrentHashMap<>();

        void put(PartitionInfo p) {
            byId.put(p.partitionId(), p);
            byName.put(p.name(), p);
        }

        void remove(PartitionInfo p) {
            byId.remove(p.partitionId());
            byName.remove(p.name(), p);
        }
    }
}
