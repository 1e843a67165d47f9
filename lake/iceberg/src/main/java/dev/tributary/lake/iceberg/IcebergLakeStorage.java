package dev.tributary.lake.iceberg;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.ConfigOptions;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.Secrets;
import dev.tributary.common.config.TableOptions;
import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStorageOptions;
import dev.tributary.lake.api.catalog.LakeCatalog;
import dev.tributary.lake.api.catalog.LakeSchemaDiff;
import dev.tributary.lake.api.catalog.LakeTableMismatchException;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.index.LakeRowScanner;
import dev.tributary.lake.api.io.ObjectStoreRequests;
import dev.tributary.lake.api.maintenance.CompactionTask;
import dev.tributary.lake.api.maintenance.LakeCompactor;
import dev.tributary.lake.api.maintenance.LakeMaintainer;
import dev.tributary.lake.api.read.LakeReader;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;

/** An Iceberg catalog opened through Iceberg's own {@code CatalogUtil}. */
final class IcebergLakeStorage implements LakeStorage {
    /**
     * The catalog name. Catalogs that keep several catalogs in one store (JDBC) key tables by it,
     * so other engines must use the same name to see Tributary's tables.
     */
    static final ConfigOption<String> CATALOG_NAME =
            ConfigOptions.key("catalog-name")
                    .stringType()
                    .defaultValue("tributary")
                    .withDescription(
                            "Name of the Iceberg catalog Tributary opens; engines sharing a JDBC"
                                    + " catalog store must use the same name.");

    private final Catalog catalog;
    private final IcebergLakeCatalog lakeCatalog;

    IcebergLakeStorage(Configuration conf) {
        String warehouse =
                conf.getOptional(LakeStorageOptions.WAREHOUSE)
                        .orElseThrow(
                                () ->
                                        new InvalidConfigException(
                                                "'datalake.iceberg.warehouse' is not set: give the"
                                                        + " Iceberg warehouse directory or URI"));
        Map<String, String> props =
                IcebergObjectStores.catalogProperties(
                        LakeStorageOptions.catalogOptions(conf), warehouse);
        props.remove(CATALOG_NAME.key());
        try {
            this.catalog =
                    CatalogUtil.buildIcebergCatalog(
                            conf.get(CATALOG_NAME),
                            props,
                            new org.apache.hadoop.conf.Configuration());
        } catch (RuntimeException e) {
            throw new InvalidConfigException(
                    "cannot open the Iceberg catalog with properties "
                            + Secrets.redact(props)
                            + ": "
                            + IcebergObjectStores.withoutSecrets(
                                    String.valueOf(e.getMessage()), props),
                    e);
        }
        this.lakeCatalog = new IcebergLakeCatalog(catalog, LakeStorageOptions.tableOptions(conf));
    }

    @Override
    public String identifier() {
        return IcebergLakeStoragePlugin.IDENTIFIER;
    }

    @Override
    public LakeCatalog catalog() {
        return lakeCatalog;
    }

    @Override
    public LakeWriter createWriter(LakeWriterContext context) {
        Table table = loadTable(catalog, context.tablePath());
        checkMatches(table, context.tablePath(), context.table(), LakeSchemaDiff.Mode.COMPATIBLE);
        return new IcebergLakeWriter(table, context);
    }

    @Override
    public LakeCommitter createCommitter(TablePath tablePath) {
        loadTable(catalog, tablePath);
        return new IcebergLakeCommitter(catalog, tablePath);
    }

    @Override
    public LakeMaintainer createMaintainer(TablePath tablePath) {
        loadTable(catalog, tablePath);
        return new IcebergMaintainer(catalog, tablePath);
    }

    @Override
    public LakeCompactor createCompactor(CompactionTask task) {
        Table table = loadTable(catalog, task.tablePath());
        checkMatches(table, task.tablePath(), task.table(), LakeSchemaDiff.Mode.COMPATIBLE);
        return new IcebergCompactor(table, task);
    }

    @Override
    public LakeReader createReader(TablePath tablePath) {
        loadTable(catalog, tablePath);
        return new IcebergTableReader(catalog, tablePath);
    }

    static TableIdentifier identifier(TablePath path) {
        return TableIdentifier.of(path.database(), path.table());
    }

    @Override
    public Optional<LakeRowScanner> createRowScanner(TablePath tablePath, TableDescriptor table) {
        if (!table.hasPrimaryKey()
                || IcebergSchemas.pkDeletes(table) != TableOptions.PkDeleteMode.POSITION) {
            return Optional.empty();
        }
        return Optional.of(new IcebergRowScanner(loadTable(catalog, tablePath), table));
    }

    static Table loadTable(Catalog catalog, TablePath path) {
        try {
            Table table = catalog.loadTable(identifier(path));
            ObjectStoreRequests.global().registerTable(path, table.location());
            return table;
        } catch (NoSuchTableException e) {
            throw new NotFoundException(
                    "Iceberg lake table '"
                            + path
                            + "' does not exist; create it with LakeCatalog.createTable",
                    e);
        }
    }

    static void checkMatches(
            Table table,
            TablePath path,
            dev.tributary.common.types.TableDescriptor expected,
            LakeSchemaDiff.Mode mode) {
        List<String> diffs = IcebergSchemas.differences(expected, table, mode);
        List<String> identity = IcebergSchemas.identityColumns(table.spec(), table.schema());
        if (!identity.equals(expected.partitionKeys())) {
            diffs = new java.util.ArrayList<>(diffs);
            diffs.add(
                    "partitioned by identity on "
                            + identity
                            + ", the Tributary table by "
                            + expected.partitionKeys());
        }
        if (!diffs.isEmpty()) {
            throw new LakeTableMismatchException(IcebergLakeStoragePlugin.IDENTIFIER, path, diffs);
        }
    }

    @Override
    public void close() {
        if (catalog instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                throw new StorageException(
                        "closing the Iceberg catalog failed: " + e.getMessage(), e);
            }
        }
    }
}
