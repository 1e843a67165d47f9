package dev.tributary.lake.iceberg;

import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.PartitionRouter;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataType;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorageOptions;
import dev.tributary.lake.api.catalog.LakeCatalog;
import dev.tributary.lake.api.catalog.LakeSchemaDiff;
import dev.tributary.lake.api.catalog.LakeSystemColumns;
import dev.tributary.lake.api.catalog.LakeTableInfo;
import dev.tributary.lake.api.catalog.LakeTableMismatchException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;

/**
 * {@link LakeCatalog} over an Iceberg catalog. A table with a single-column bucket key is
 * partitioned by {@code bucket[N]} of that column ({@link IcebergSchemas#partitionSpec}); others
 * are unpartitioned. An existing table keeps the spec it was created with.
 */
final class IcebergLakeCatalog implements LakeCatalog {
    private final Catalog catalog;
    private final Map<String, String> tablePropertyOverrides;

    IcebergLakeCatalog(Catalog catalog, Map<String, String> tablePropertyOverrides) {
        this.catalog = catalog;
        this.tablePropertyOverrides = Map.copyOf(tablePropertyOverrides);
    }

    @Override
    public void createTable(TablePath tablePath, TableDescriptor table) {
        org.apache.iceberg.Schema schema = IcebergSchemas.toIcebergSchema(table);
        Namespace ns = Namespace.of(tablePath.database());
        if (catalog instanceof SupportsNamespaces namespaces && !namespaces.namespaceExists(ns)) {
            try {
                namespaces.createNamespace(ns);
            } catch (AlreadyExistsException raced) {
                // created concurrently: fine
            }
        }
        try {
            catalog.buildTable(IcebergLakeStorage.identifier(tablePath), schema)
                    .withPartitionSpec(IcebergSchemas.partitionSpec(table, schema))
                    .withProperties(
                            IcebergSchemas.tableProperties(
                                    table,
                                    LakeStorageOptions.nativeTableProperties(
                                            tablePropertyOverrides,
                                            table,
                                            IcebergLakeStoragePlugin.IDENTIFIER)))
                    .create();
        } catch (AlreadyExistsException e) {
            validateTable(tablePath, table);
        }
    }

    @Override
    public void alterTable(TablePath tablePath, TableDescriptor newTable) {
        Table t = IcebergLakeStorage.loadTable(catalog, tablePath);
        IcebergLakeStorage.checkMatches(t, tablePath, newTable, LakeSchemaDiff.Mode.LAKE_BEHIND);
        UpdateSchema update = null;
        for (Column c : newTable.schema().columns()) {
            if (t.schema().findField(c.name()) == null) {
                if (update == null) {
                    update = t.updateSchema();
                }
                update.addColumn(c.name(), IcebergTypes.toIceberg(c.type()), c.comment());
                update.moveBefore(c.name(), LakeSystemColumns.BUCKET);
            }
        }
        if (update != null) {
            update.commit();
        }
    }

    @Override
    public boolean dropTable(TablePath tablePath) {
        return catalog.dropTable(IcebergLakeStorage.identifier(tablePath), true);
    }

    @Override
    public void dropPartition(TablePath tablePath, TableDescriptor table, PartitionSpec partition) {
        Table t = IcebergLakeStorage.loadTable(catalog, tablePath);
        Object[] values = PartitionRouter.of(table).values(partition);
        Expression filter = Expressions.alwaysTrue();
        for (int i = 0; i < values.length; i++) {
            Object v = values[i] instanceof java.time.LocalDate d ? d.toString() : values[i];
            filter = Expressions.and(filter, Expressions.equal(partition.keys().get(i), v));
        }
        // identity partitions: every file of the partition matches entirely, so whole files go
        t.newDelete().deleteFromRowFilter(filter).commit();
    }

    @Override
    public boolean tableExists(TablePath tablePath) {
        return catalog.tableExists(IcebergLakeStorage.identifier(tablePath));
    }

    @Override
    public LakeTableInfo describeTable(TablePath tablePath) {
        Table t = IcebergLakeStorage.loadTable(catalog, tablePath);
        List<Column> columns = new ArrayList<>();
        List<String> pk = new ArrayList<>();
        for (Types.NestedField f : t.schema().columns()) {
            DataType type = IcebergTypes.fromIceberg(f.type());
            if (type == null) {
                throw new LakeTableMismatchException(
                        IcebergLakeStoragePlugin.IDENTIFIER,
                        tablePath,
                        List.of(
                                "column '"
                                        + f.name()
                                        + "' has type "
                                        + f.type()
                                        + " which Tributary does not support"));
            }
            columns.add(new Column(f.name(), type.copy(f.isOptional()), f.doc()));
            if (t.schema().identifierFieldIds().contains(f.fieldId())) {
                pk.add(f.name());
            }
        }
        return new LakeTableInfo(
                tablePath,
                IcebergLakeStoragePlugin.IDENTIFIER,
                Schema.of(columns, pk),
                t.location(),
                t.properties());
    }

    @Override
    public void validateTable(TablePath tablePath, TableDescriptor table) {
        IcebergLakeStorage.checkMatches(
                IcebergLakeStorage.loadTable(catalog, tablePath),
                tablePath,
                table,
                LakeSchemaDiff.Mode.COMPATIBLE);
    }
}
