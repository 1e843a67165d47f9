package dev.tributary.lake.paimon;

import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TablePath;
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
import org.apache.paimon.CoreOptions;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataField;

/** {@link LakeCatalog} over a Paimon catalog. */
final class PaimonLakeCatalog implements LakeCatalog {
    private final Catalog catalog;
    private final Map<String, String> tableOptionOverrides;

    PaimonLakeCatalog(Catalog catalog, Map<String, String> tableOptionOverrides) {
        PaimonSchemas.checkOverrides(tableOptionOverrides);
        this.catalog = catalog;
        this.tableOptionOverrides = Map.copyOf(tableOptionOverrides);
    }

    @Override
    public void createTable(TablePath tablePath, TableDescriptor table) {
        org.apache.paimon.schema.Schema schema =
                PaimonSchemas.toPaimonSchema(
                        table,
                        LakeStorageOptions.nativeTableProperties(
                                tableOptionOverrides, table, PaimonLakeStoragePlugin.IDENTIFIER));
        try {
            catalog.createDatabase(tablePath.database(), true);
            catalog.createTable(PaimonLakeStorage.identifier(tablePath), schema, false);
        } catch (Catalog.TableAlreadyExistException e) {
            validateTable(tablePath, table);
        } catch (Catalog.DatabaseNotExistException | Catalog.DatabaseAlreadyExistException e) {
            throw new StorageException(
                    "creating Paimon table '" + tablePath + "' failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void alterTable(TablePath tablePath, TableDescriptor newTable) {
        FileStoreTable t = PaimonLakeStorage.loadTable(catalog, tablePath);
        checkMatches(t, tablePath, newTable, LakeSchemaDiff.Mode.LAKE_BEHIND);
        List<String> present = t.rowType().getFieldNames();
        List<SchemaChange> changes = new ArrayList<>();
        for (Column c : newTable.schema().columns()) {
            if (!present.contains(c.name())) {
                changes.add(
                        SchemaChange.addColumn(
                                c.name(),
                                PaimonTypes.toPaimon(c.type()),
                                c.comment(),
                                SchemaChange.Move.before(c.name(), LakeSystemColumns.BUCKET)));
            }
        }
        if (changes.isEmpty()) {
            return;
        }
        try {
            catalog.alterTable(PaimonLakeStorage.identifier(tablePath), changes, false);
        } catch (Catalog.TableNotExistException
                | Catalog.ColumnAlreadyExistException
                | Catalog.ColumnNotExistException e) {
            throw new StorageException(
                    "altering Paimon table '" + tablePath + "' failed: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean dropTable(TablePath tablePath) {
        try {
            catalog.dropTable(PaimonLakeStorage.identifier(tablePath), false);
            return true;
        } catch (Catalog.TableNotExistException e) {
            return false;
        }
    }

    @Override
    public void dropPartition(TablePath tablePath, TableDescriptor table, PartitionSpec partition) {
        try {
            catalog.dropPartitions(
                    PaimonLakeStorage.identifier(tablePath), List.of(partition.asMap()));
        } catch (Catalog.TableNotExistException e) {
            throw new dev.tributary.common.exception.NotFoundException(
                    "Paimon lake table '" + tablePath + "' does not exist", e);
        }
    }

    @Override
    public boolean tableExists(TablePath tablePath) {
        try {
            catalog.getTable(PaimonLakeStorage.identifier(tablePath));
            return true;
        } catch (Catalog.TableNotExistException e) {
            return false;
        }
    }

    @Override
    public LakeTableInfo describeTable(TablePath tablePath) {
        FileStoreTable t = PaimonLakeStorage.loadTable(catalog, tablePath);
        List<Column> columns = new ArrayList<>();
        for (DataField f : t.rowType().getFields()) {
            DataType type = PaimonTypes.fromPaimon(f.type());
            if (type == null) {
                throw new LakeTableMismatchException(
                        PaimonLakeStoragePlugin.IDENTIFIER,
                        tablePath,
                        List.of(
                                "column '"
                                        + f.name()
                                        + "' has type "
                                        + f.type().asSQLString()
                                        + " which Tributary does not support"));
            }
            columns.add(new Column(f.name(), type, f.description()));
        }
        return new LakeTableInfo(
                tablePath,
                PaimonLakeStoragePlugin.IDENTIFIER,
                Schema.of(columns, t.primaryKeys()),
                t.location().toString(),
                t.options());
    }

    @Override
    public void validateTable(TablePath tablePath, TableDescriptor table) {
        checkMatches(
                PaimonLakeStorage.loadTable(catalog, tablePath),
                tablePath,
                table,
                LakeSchemaDiff.Mode.COMPATIBLE);
    }

    /**
     * Throws {@link LakeTableMismatchException} naming every difference not tolerated: the columns
     * (see {@link LakeSchemaDiff}) and what decides where and how rows land, the bucket count and
     * key (T36) and, for PK tables, the merge engine.
     */
    static void checkMatches(
            FileStoreTable t, TablePath path, TableDescriptor table, LakeSchemaDiff.Mode mode) {
        List<LakeSchemaDiff.LakeField> fields = new ArrayList<>();
        for (DataField f : t.rowType().getFields()) {
            fields.add(
                    new LakeSchemaDiff.LakeField(
                            f.name(), f.type().copy(true).asSQLString(), f.type().isNullable()));
        }
        List<String> diffs =
                LakeSchemaDiff.differences(
                        table,
                        fields,
                        t.primaryKeys(),
                        type -> PaimonTypes.toPaimon(type).copy(true).asSQLString(),
                        mode);
        Map<String, String> want = PaimonSchemas.tableOptions(table, Map.of());
        CoreOptions lake = t.coreOptions();
        LakeSchemaDiff.layout("option 'bucket'", lake.bucket(), want.get("bucket"), diffs);
        if (want.containsKey("bucket-key")) {
            LakeSchemaDiff.layout(
                    "option 'bucket-key'",
                    t.options().get("bucket-key"),
                    want.get("bucket-key"),
                    diffs);
        }
        if (table.hasPrimaryKey()) {
            LakeSchemaDiff.layout(
                    "option 'merge-engine'",
                    lake.mergeEngine().toString(),
                    want.get("merge-engine"),
                    diffs);
        }
        if (!t.partitionKeys().equals(table.partitionKeys())) {
            diffs = new ArrayList<>(diffs);
            diffs.add(
                    "partitioned by "
                            + t.partitionKeys()
                            + ", the Tributary table by "
                            + table.partitionKeys());
        }
        if (!diffs.isEmpty()) {
            throw new LakeTableMismatchException(PaimonLakeStoragePlugin.IDENTIFIER, path, diffs);
        }
    }
}
