package dev.tributary.flink.catalog;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableAlteration;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.common.exception.AlreadyExistsException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.TableDescriptor;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.table.catalog.AbstractCatalog;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.CatalogFunction;
import org.apache.flink.table.catalog.CatalogPartition;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotEmptyException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.FunctionNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionNotExistException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.catalog.exceptions.TableNotPartitionedException;
import org.apache.flink.table.catalog.stats.CatalogColumnStatistics;
import org.apache.flink.table.catalog.stats.CatalogTableStatistics;
import org.apache.flink.table.expressions.Expression;
import org.apache.flink.table.factories.Factory;

/**
 * Tributary's databases and tables in Flink SQL (T41): {@code CREATE CATALOG t WITH ('type' =
 * 'tributary', 'address' = 'host:port')}. Tables are listed, described, created (columns, primary
 * key, {@code DISTRIBUTED BY HASH(k) INTO n BUCKETS} or {@code bucket.num}/{@code bucket.key},
 * every other option a table property such as {@code table.datalake.enabled}), altered (properties,
 * added nullable columns) and dropped on the server; reading and writing them goes through {@link
 * TributaryTableFactory}. Tributary has no views, functions, partitions or statistics; the catalog
 * says so instead of pretending.
 */
public final class TributaryCatalog extends AbstractCatalog {
    private final ConnectionConfig config;
    private Connection connection;

    public TributaryCatalog(String name, String defaultDatabase, ConnectionConfig config) {
        super(name, defaultDatabase);
        this.config = config;
    }

    @Override
    public void open() {
        try {
            connection = config.connect();
            // USE CATALOG lands in the default database: make sure it exists
            connection.admin().createDatabase(getDefaultDatabase(), true);
        } catch (TributaryException e) {
            throw new CatalogException(
                    "cannot open Tributary catalog '"
                            + getName()
                            + "' at "
                            + config.address()
                            + ": "
                            + e.getMessage(),
                    e);
        }
    }

    @Override
    public void close() {
        if (connection != null) {
            connection.close();
            connection = null;
        }
    }

    @Override
    public Optional<Factory> getFactory() {
        return Optional.of(new TributaryTableFactory(config));
    }

    private Connection conn() {
        if (connection == null) {
            throw new CatalogException("catalog '" + getName() + "' is not open");
        }
        return connection;
    }

    // ---------------------------------------------------------------- databases

    @Override
    public List<String> listDatabases() {
        return call(() -> conn().admin().listDatabases());
    }

    @Override
    public CatalogDatabase getDatabase(String name) throws DatabaseNotExistException {
        if (!databaseExists(name)) {
            throw new DatabaseNotExistException(getName(), name);
        }
        return new CatalogDatabaseImpl(Map.of(), null);
    }

    @Override
    public boolean databaseExists(String name) {
        return listDatabases().contains(name);
    }

    @Override
    public void createDatabase(String name, CatalogDatabase database, boolean ignoreIfExists)
            throws DatabaseAlreadyExistException {
        try {
            conn().admin().createDatabase(name, ignoreIfExists);
        } catch (AlreadyExistsException e) {
            throw new DatabaseAlreadyExistException(getName(), name, e);
        } catch (TributaryException e) {
            throw new CatalogException(e.getMessage(), e);
        }
    }

    @Override
    public void dropDatabase(String name, boolean ignoreIfNotExists, boolean cascade)
            throws DatabaseNotExistException, DatabaseNotEmptyException {
        if (!databaseExists(name)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new DatabaseNotExistException(getName(), name);
        }
        if (!cascade && !listTables(name).isEmpty()) {
            throw new DatabaseNotEmptyException(getName(), name);
        }
        call(
                () -> {
                    conn().admin().dropDatabase(name, ignoreIfNotExists, cascade);
                    return null;
                });
    }

    @Override
    public void alterDatabase(String name, CatalogDatabase newDatabase, boolean ignoreIfNotExists) {
        throw new CatalogException("Tributary databases have no properties to alter");
    }

    // ---------------------------------------------------------------- tables

    @Override
    public List<String> listTables(String database) throws DatabaseNotExistException {
        if (!databaseExists(database)) {
            throw new DatabaseNotExistException(getName(), database);
        }
        return call(() -> conn().admin().listTables(database));
    }

    @Override
    public List<String> listViews(String database) {
        return List.of();
    }

    @Override
    public CatalogBaseTable getTable(ObjectPath path) throws TableNotExistException {
        try {
            return FlinkTables.toFlink(conn().admin().describeTable(toPath(path)));
        } catch (NotFoundException e) {
            throw new TableNotExistException(getName(), path, e);
        } catch (TributaryException e) {
            throw new CatalogException(e.getMessage(), e);
        }
    }

    @Override
    public boolean tableExists(ObjectPath path) {
        try {
            conn().admin().describeTable(toPath(path));
            return true;
        } catch (NotFoundException e) {
            return false;
        } catch (TributaryException e) {
            throw new CatalogException(e.getMessage(), e);
        }
    }

    @Override
    public void dropTable(ObjectPath path, boolean ignoreIfNotExists)
            throws TableNotExistException {
        try {
            conn().admin().dropTable(toPath(path), ignoreIfNotExists);
        } catch (NotFoundException e) {
            throw new TableNotExistException(getName(), path, e);
        } catch (TributaryException e) {
            throw new CatalogException(e.getMessage(), e);
        }
    }

    @Override
    public void renameTable(ObjectPath path, String newName, boolean ignoreIfNotExists) {
        throw new CatalogException(
                "Tributary tables cannot be renamed (their lake tables are named after them)");
    }

    @Override
    public void createTable(ObjectPath path, CatalogBaseTable table, boolean ignoreIfExists)
            throws TableAlreadyExistException, DatabaseNotExistException {
        if (!(table instanceof ResolvedCatalogTable resolved)) {
            throw new CatalogException("Tributary stores tables only, not views");
        }
        if (!databaseExists(path.getDatabaseName())) {
            throw new DatabaseNotExistException(getName(), path.getDatabaseName());
        }
        try {
            TableDescriptor d = FlinkTables.toDescriptor(resolved);
            conn().admin().createTable(toPath(path), d, ignoreIfExists);
        } catch (AlreadyExistsException e) {
            throw new TableAlreadyExistException(getName(), path, e);
        } catch (TributaryException e) {
            throw new CatalogException(e.getMessage(), e);
        }
    }

    /**
     * Applies changed properties and appended nullable columns; other changes (types, keys,
     * buckets, removed columns) are refused by the server's rules.
     */
    @Override
    public void alterTable(ObjectPath path, CatalogBaseTable newTable, boolean ignoreIfNotExists)
            throws TableNotExistException {
        if (!(newTable instanceof ResolvedCatalogTable resolved)) {
            throw new CatalogException("Tributary stores tables only, not views");
        }
        try {
            TableInfo current = conn().admin().describeTable(toPath(path));
            TableDescriptor wanted = FlinkTables.toDescriptor(resolved);
            TableAlteration alteration = TableAlteration.create();
            Map<String, String> before = new HashMap<>(current.descriptor().properties());
            wanted.properties()
                    .forEach(
                            (k, v) -> {
                                if (!v.equals(before.remove(k))) {
                                    alteration.setProperty(k, v);
                                }
                            });
            before.keySet().forEach(alteration::resetProperty);
            List<Column> now = current.schema().columns();
            List<Column> next = wanted.schema().columns();
            for (int i = 0; i < next.size(); i++) {
                if (i < now.size()) {
                    if (!now.get(i).name().equals(next.get(i).name())
                            || !now.get(i).type().equals(next.get(i).type())) {
                        throw new CatalogException(
                                "Tributary can only append nullable columns; column "
                                        + now.get(i).name()
                                        + " would change");
                    }
                } else {
                    alteration.addColumn(next.get(i).name(), next.get(i).type());
                }
            }
            if (next.size() < now.size()) {
                throw new CatalogException("Tributary cannot drop columns");
            }
            if (!alteration.isEmpty()) {
                conn().admin().alterTable(toPath(path), alteration);
            }
        } catch (NotFoundException e) {
            if (!ignoreIfNotExists) {
                throw new TableNotExistException(getName(), path, e);
            }
        } catch (TributaryException e) {
            throw new CatalogException(e.getMessage(), e);
        }
    }

    private static TablePath toPath(ObjectPath path) {
        return TablePath.of(path.getDatabaseName(), path.getObjectName());
    }

    private <T> T call(java.util.concurrent.Callable<T> c) {
        try {
            return c.call();
        } catch (TributaryException e) {
            throw new CatalogException(e.getMessage(), e);
        } catch (Exception e) {
            throw new CatalogException(e.getMessage(), e);
        }
    }

    // ---------------------------------------------------------------- not in Tributary

    @Override
    public List<CatalogPartitionSpec> listPartitions(ObjectPath path)
            throws TableNotPartitionedException {
        throw new TableNotPartitionedException(getName(), path);
    }

    @Override
    public List<CatalogPartitionSpec> listPartitions(ObjectPath path, CatalogPartitionSpec spec)
            throws TableNotPartitionedException {
        throw new TableNotPartitionedException(getName(), path);
    }

    @Override
    public List<CatalogPartitionSpec> listPartitionsByFilter(
            ObjectPath path, List<Expression> filters) throws TableNotPartitionedException {
        throw new TableNotPartitionedException(getName(), path);
    }

    @Override
    public CatalogPartition getPartition(ObjectPath path, CatalogPartitionSpec spec)
            throws PartitionNotExistException {
        throw new PartitionNotExistException(getName(), path, spec);
    }

    @Override
    public boolean partitionExists(ObjectPath path, CatalogPartitionSpec spec) {
        return false;
    }

    @Override
    public void createPartition(
            ObjectPath path,
            CatalogPartitionSpec spec,
            CatalogPartition partition,
            boolean ignoreIfExists)
            throws TableNotPartitionedException {
        throw new TableNotPartitionedException(getName(), path);
    }

    @Override
    public void dropPartition(ObjectPath path, CatalogPartitionSpec spec, boolean ignoreIfNotExists)
            throws PartitionNotExistException {
        throw new PartitionNotExistException(getName(), path, spec);
    }

    @Override
    public void alterPartition(
            ObjectPath path,
            CatalogPartitionSpec spec,
            CatalogPartition partition,
            boolean ignoreIfNotExists)
            throws PartitionNotExistException {
        throw new PartitionNotExistException(getName(), path, spec);
    }

    @Override
    public List<String> listFunctions(String database) {
        return List.of();
    }

    @Override
    public CatalogFunction getFunction(ObjectPath path) throws FunctionNotExistException {
        throw new FunctionNotExistException(getName(), path);
    }

    @Override
    public boolean functionExists(ObjectPath path) {
        return false;
    }

    @Override
    public void createFunction(ObjectPath path, CatalogFunction function, boolean ignoreIfExists) {
        throw new CatalogException("Tributary catalogs hold no functions");
    }

    @Override
    public void alterFunction(
            ObjectPath path, CatalogFunction function, boolean ignoreIfNotExists) {
        throw new CatalogException("Tributary catalogs hold no functions");
    }

    @Override
    public void dropFunction(ObjectPath path, boolean ignoreIfNotExists)
            throws FunctionNotExistException {
        if (!ignoreIfNotExists) {
            throw new FunctionNotExistException(getName(), path);
        }
    }

    @Override
    public CatalogTableStatistics getTableStatistics(ObjectPath path) {
        return CatalogTableStatistics.UNKNOWN;
    }

    @Override
    public CatalogColumnStatistics getTableColumnStatistics(ObjectPath path) {
        return CatalogColumnStatistics.UNKNOWN;
    }

    @Override
    public CatalogTableStatistics getPartitionStatistics(
            ObjectPath path, CatalogPartitionSpec spec) {
        return CatalogTableStatistics.UNKNOWN;
    }

    @Override
    public CatalogColumnStatistics getPartitionColumnStatistics(
            ObjectPath path, CatalogPartitionSpec spec) {
        return CatalogColumnStatistics.UNKNOWN;
    }

    @Override
    public void alterTableStatistics(
            ObjectPath path, CatalogTableStatistics stats, boolean ignoreIfNotExists) {
        throw new CatalogException("Tributary keeps no table statistics");
    }

    @Override
    public void alterTableColumnStatistics(
            ObjectPath path, CatalogColumnStatistics stats, boolean ignoreIfNotExists) {
        throw new CatalogException("Tributary keeps no column statistics");
    }

    @Override
    public void alterPartitionStatistics(
            ObjectPath path,
            CatalogPartitionSpec spec,
            CatalogTableStatistics stats,
            boolean ignoreIfNotExists) {
        throw new CatalogException("Tributary tables have no partitions");
    }

    @Override
    public void alterPartitionColumnStatistics(
            ObjectPath path,
            CatalogPartitionSpec spec,
            CatalogColumnStatistics stats,
            boolean ignoreIfNotExists) {
        throw new CatalogException("Tributary tables have no partitions");
    }
}
