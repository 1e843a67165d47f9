package dev.tributary.coordinator.metadata;

import dev.tributary.common.config.TableOptionsValidator;
import dev.tributary.common.exception.AlreadyExistsException;
import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.store.MetadataStore;
import dev.tributary.coordinator.store.StoredState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Databases and tables: ids, paths, descriptors, schema versions and properties. Every change is
 * written to the {@link MetadataStore} before it becomes visible, so an acknowledged DDL survives a
 * crash. Not thread safe: runs on the coordinator's event loop.
 */
public final class TableRegistry {
    private final MetadataStore store;
    private final Clock clock;
    private final Map<String, DatabaseInfo> databases = new TreeMap<>();
    // Concurrent maps of immutable values: written only on the event loop, readable from any
    // thread (the write path looks tables up without a trip through the loop).
    private final Map<Long, TableInfo> byId = new ConcurrentHashMap<>();
    private final Map<TablePath, Long> idByPath = new ConcurrentHashMap<>();
    private long maxTableId;

    public TableRegistry(MetadataStore store, Clock clock, StoredState state) {
        this.store = store;
        this.clock = clock;
        this.databases.putAll(state.databases());
        for (TableInfo t : state.tables().values()) {
            byId.put(t.tableId(), t);
            idByPath.put(t.path(), t.tableId());
        }
        this.maxTableId = state.maxTableId();
    }

    public DatabaseInfo createDatabase(String name, String comment, boolean ignoreIfExists) {
        TablePath.validateName("database", name);
        DatabaseInfo existing = databases.get(name);
        if (existing != null) {
            if (ignoreIfExists) {
                return existing;
            }
            throw new AlreadyExistsException(
                    "database '" + name + "' already exists; use IF NOT EXISTS to ignore");
        }
        DatabaseInfo db = new DatabaseInfo(name, comment, clock.currentTimeMillis());
        store.putDatabase(db);
        databases.put(name, db);
        return db;
    }

    /**
     * Drops a database.
     *
     * @param cascade also drop its tables; without it a non-empty database is an error
     * @return the tables dropped with it
     */
    public List<TableInfo> dropDatabase(String name, boolean ignoreIfNotExists, boolean cascade) {
        if (!databases.containsKey(name)) {
            if (ignoreIfNotExists) {
                return List.of();
            }
            throw new NotFoundException("database '" + name + "' does not exist");
        }
        List<TableInfo> tables = tablesOf(name);
        if (!tables.isEmpty() && !cascade) {
            throw new InvalidInputException(
                    "database '"
                            + name
                            + "' still has "
                            + tables.size()
                            + " table(s); drop them first or use CASCADE");
        }
        for (TableInfo t : tables) {
            store.removeTable(t.tableId());
            byId.remove(t.tableId());
            idByPath.remove(t.path());
        }
        store.removeDatabase(name);
        databases.remove(name);
        return tables;
    }

    public List<DatabaseInfo> listDatabases() {
        return List.copyOf(databases.values());
    }

    public Optional<DatabaseInfo> database(String name) {
        return Optional.ofNullable(databases.get(name));
    }

    /**
     * Creates a table with the next table id.
     *
     * @return the new table, or the existing one when {@code ignoreIfExists}
     * @throws NotFoundException if the database does not exist
     * @throws AlreadyExistsException if the table exists and {@code !ignoreIfExists}
     * @throws InvalidInputException if a property is invalid
     */
    public Created createTable(TablePath path, TableDescriptor descriptor, boolean ignoreIfExists) {
        requireDatabase(path.database());
        Long existing = idByPath.get(path);
        if (existing != null) {
            if (ignoreIfExists) {
                return new Created(byId.get(existing), false);
            }
            throw new AlreadyExistsException(
                    "table '" + path + "' already exists; use IF NOT EXISTS to ignore");
        }
        TableOptionsValidator.validate(descriptor.properties());
        validateBucketNum(descriptor.properties());
        BucketFunctionRules.validateCreate(descriptor);
        ReplicationRules.validateCreate(descriptor, store.servers().size());
        descriptor = ReplicationRules.withFactorChosen(descriptor, store.servers().size());
        long now = clock.currentTimeMillis();
        TableInfo table = TableInfo.create(maxTableId + 1, path, descriptor, now);
        store.putTable(table);
        maxTableId = table.tableId();
        byId.put(table.tableId(), table);
        idByPath.put(path, table.tableId());
        return new Created(table, true);
    }

    /** The result of a CREATE TABLE: the table and whether this call created it. */
    public record Created(TableInfo table, boolean created) {}

    /** The table before and after an ALTER. */
    public record Altered(TableInfo before, TableInfo after) {}

    /**
     * Applies changes atomically: all or none.
     *
     * @throws NotFoundException if the table does not exist
     * @throws InvalidInputException if a resulting property is invalid or a column cannot be added
     */
    public Altered alterTable(TablePath path, List<TableChange> changes) {
        TableInfo before = describe(path);
        if (changes.isEmpty()) {
            throw new InvalidInputException("ALTER TABLE " + path + " has no changes");
        }
        Map<String, String> props = new LinkedHashMap<>(before.properties());
        Schema schema = before.schema();
        int schemaId = before.schemaId();
        TreeMap<Integer, Schema> schemas = new TreeMap<>(before.schemas());
        for (TableChange change : changes) {
            if (change instanceof TableChange.SetProperty set) {
                // only what this ALTER sets: a key stored before T56 may be reset, never refused
                TableOptionsValidator.validate(set.key(), set.value());
                props.put(set.key(), set.value());
            } else if (change instanceof TableChange.ResetProperty reset) {
                props.remove(reset.key());
            } else if (change instanceof TableChange.AddColumn add) {
                schema = schema.addColumn(add.column());
                schemaId++;
                schemas.put(schemaId, schema);
            }
        }
        validateBucketNum(props);
        BucketFunctionRules.checkAlter(path, before.descriptor(), props);
        ReplicationRules.checkAlter(path, before.descriptor(), props);
        TableDescriptor descriptor = before.descriptor().withSchema(schema).withProperties(props);
        TableInfo after =
                new TableInfo(
                        before.tableId(),
                        path,
                        descriptor,
                        schemaId,
                        schemas,
                        before.createdTimeMillis(),
                        clock.currentTimeMillis());
        store.putTable(after);
        byId.put(after.tableId(), after);
        return new Altered(before, after);
    }

    /**
     * A {@code bucket.num} property (sent by older clients next to the descriptor's bucket count)
     * must at least be a bucket count.
     */
    private static void validateBucketNum(Map<String, String> properties) {
        String buckets = properties.get("bucket.num");
        if (buckets == null) {
            return;
        }
        try {
            if (Integer.parseInt(buckets.trim()) >= 1) {
                return;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new InvalidConfigException(
                "invalid value '" + buckets + "' for 'bucket.num': expected an integer >= 1");
    }

    /**
     * Drops a table.
     *
     * @return the dropped table, or empty if it did not exist and {@code ignoreIfNotExists}
     */
    public Optional<TableInfo> dropTable(TablePath path, boolean ignoreIfNotExists) {
        Long id = idByPath.get(path);
        if (id == null) {
            if (ignoreIfNotExists) {
                return Optional.empty();
            }
            throw notFound(path);
        }
        store.removeTable(id);
        idByPath.remove(path);
        return Optional.of(byId.remove(id));
    }

    public List<TablePath> listTables(String database) {
        requireDatabase(database);
        return tablesOf(database).stream().map(TableInfo::path).sorted().toList();
    }

    /** The table at {@code path}; throws {@link NotFoundException} if there is none. */
    public TableInfo describe(TablePath path) {
        Long id = idByPath.get(path);
        if (id == null) {
            throw notFound(path);
        }
        return byId.get(id);
    }

    /** Thread safe: may be called from any thread. */
    public Optional<TableInfo> byId(long tableId) {
        return Optional.ofNullable(byId.get(tableId));
    }

    /** Thread safe: may be called from any thread. */
    public Optional<TableInfo> byPath(TablePath path) {
        Long id = idByPath.get(path);
        return id == null ? Optional.empty() : Optional.ofNullable(byId.get(id));
    }

    /** A schema version of a table; throws {@link NotFoundException} if either is unknown. */
    public Schema schema(long tableId, int schemaId) {
        TableInfo t = byId.get(tableId);
        if (t == null) {
            throw new NotFoundException("table id " + tableId + " does not exist");
        }
        Schema s = t.schemas().get(schemaId);
        if (s == null) {
            throw new NotFoundException(
                    "table "
                            + t.path()
                            + " has no schema id "
                            + schemaId
                            + "; ids are "
                            + t.schemas().keySet());
        }
        return s;
    }

    public Collection<TableInfo> tables() {
        return byId.values();
    }

    public long maxTableId() {
        return maxTableId;
    }

    private List<TableInfo> tablesOf(String database) {
        List<TableInfo> out = new ArrayList<>();
        for (TableInfo t : byId.values()) {
            if (t.path().database().equals(database)) {
                out.add(t);
            }
        }
        return out;
    }

    private void requireDatabase(String name) {
        if (!databases.containsKey(name)) {
            throw new NotFoundException("database '" + name + "' does not exist; create it first");
        }
    }

    private static NotFoundException notFound(TablePath path) {
        return new NotFoundException("table '" + path + "' does not exist");
    }
}
