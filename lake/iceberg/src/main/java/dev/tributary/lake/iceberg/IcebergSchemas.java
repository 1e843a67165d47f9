package dev.tributary.lake.iceberg;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.TableOptions;
import dev.tributary.common.row.BucketFunctionType;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.catalog.LakeSchemaDiff;
import dev.tributary.lake.api.catalog.LakeSystemColumns;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.types.Types;

/** The Iceberg table Tributary creates for a descriptor, and how an existing one compares. */
final class IcebergSchemas {
    private IcebergSchemas() {}

    static org.apache.iceberg.Schema toIcebergSchema(TableDescriptor table) {
        Schema lake = LakeSystemColumns.lakeSchemaOf(table.schema());
        List<Types.NestedField> fields = new ArrayList<>();
        Set<Integer> identifiers = new HashSet<>();
        int id = 1;
        for (Column c : lake.columns()) {
            fields.add(
                    Types.NestedField.of(
                            id,
                            c.type().isNullable(),
                            c.name(),
                            IcebergTypes.toIceberg(c.type()),
                            c.comment()));
            if (lake.primaryKey().contains(c.name())) {
                identifiers.add(id);
            }
            id++;
        }
        return new org.apache.iceberg.Schema(fields, identifiers);
    }

    /**
     * The partition spec of a new table: identity partitions on the table's partition columns
     * (T32), then {@code bucket[N](k)} when the bucket key is one column Iceberg can bucket, so
     * Iceberg's own planning prunes an equality filter on {@code k} to one partition (T37), and
     * with {@code table.bucket.function=iceberg} store bucket b is partition value b (T36). The
     * spec follows the key, not the table's bucket function: a table bucketed with another function
     * still gets pruning (its splits then write into many partitions). Without a bucket key, or
     * with one Iceberg cannot bucket (several columns; BOOLEAN, FLOAT, DOUBLE), the table is
     * unpartitioned: engines cannot prune it by key.
     */
    static PartitionSpec partitionSpec(TableDescriptor table, org.apache.iceberg.Schema schema) {
        PartitionSpec.Builder spec = PartitionSpec.builderFor(schema);
        // a partitioned Tributary table (T32): identity on each partition column, then the bucket
        for (String column : table.partitionKeys()) {
            spec.identity(column);
        }
        List<String> keys = table.bucketKeys();
        if (keys.isEmpty()
                || BucketFunctionType.ICEBERG.unsupportedReason(table.schema(), keys).isPresent()) {
            return spec.build();
        }
        String column = keys.get(0);
        // Iceberg's default name for the field, unless a column already has it
        String name = column + "_bucket";
        while (schema.findField(name) != null) {
            name = "_" + name;
        }
        return spec.bucket(column, table.bucketCount(), name).build();
    }

    /** The names of the spec's identity source columns, in spec order. */
    static List<String> identityColumns(PartitionSpec spec, org.apache.iceberg.Schema schema) {
        List<String> out = new ArrayList<>();
        for (org.apache.iceberg.PartitionField f : spec.fields()) {
            if (f.transform().isIdentity()) {
                out.add(schema.findColumnName(f.sourceId()));
            }
        }
        return out;
    }

    /**
     * Table properties: format v2, v3 when a column needs nanosecond timestamps or the table is a
     * PK table that retracts rows by position (T48: deletion vectors need v3), bounded metadata
     * file history, merge-on-read row-level operations for PK tables so engines that update the
     * table write deletes the same way tiering does, and the configured overrides (a pass-through
     * {@code table.datalake.iceberg.format-version} wins).
     */
    static Map<String, String> tableProperties(
            TableDescriptor table, Map<String, String> overrides) {
        Map<String, String> p = new LinkedHashMap<>();
        boolean v3 =
                table.schema().columns().stream().anyMatch(c -> IcebergTypes.needsV3(c.type()))
                        || (table.hasPrimaryKey()
                                && pkDeletes(table) == TableOptions.PkDeleteMode.POSITION);
        p.put(TableProperties.FORMAT_VERSION, v3 ? "3" : "2");
        // one metadata file per commit would otherwise pile up forever (a commit per round)
        p.put(TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED, "true");
        if (table.hasPrimaryKey()) {
            p.put(TableProperties.DELETE_MODE, "merge-on-read");
            p.put(TableProperties.UPDATE_MODE, "merge-on-read");
            p.put(TableProperties.MERGE_MODE, "merge-on-read");
        }
        p.putAll(overrides);
        return p;
    }

    /** How the PK table's rounds retract rows in the lake ({@code table.datalake.pk-deletes}). */
    static TableOptions.PkDeleteMode pkDeletes(TableDescriptor table) {
        return Configuration.fromMap(table.properties()).get(TableOptions.DATALAKE_PK_DELETES);
    }

    static List<String> differences(
            TableDescriptor expected, org.apache.iceberg.Table table, LakeSchemaDiff.Mode mode) {
        org.apache.iceberg.Schema actual = table.schema();
        List<LakeSchemaDiff.LakeField> fields = new ArrayList<>();
        for (Types.NestedField f : actual.columns()) {
            fields.add(
                    new LakeSchemaDiff.LakeField(
                            f.name(), IcebergTypes.render(f.type(), false), f.isOptional()));
        }
        List<String> pk = new ArrayList<>();
        for (Types.NestedField f : actual.columns()) {
            if (actual.identifierFieldIds().contains(f.fieldId())) {
                pk.add(f.name());
            }
        }
        // identifier order is not kept by Iceberg: compare as the Tributary order when same set
        if (new HashSet<>(pk).equals(new HashSet<>(expected.schema().primaryKey()))) {
            pk = expected.schema().primaryKey();
        }
        List<String> diffs =
                LakeSchemaDiff.differences(
                        expected,
                        fields,
                        pk,
                        t -> IcebergTypes.render(IcebergTypes.toIceberg(t), false),
                        mode);
        // Tributary's spec, or none (tables created before T36 keep theirs); anything else could
        // put a key's delete in another partition than its row, where it does not apply
        PartitionSpec spec = table.spec();
        if (!spec.isUnpartitioned()) {
            LakeSchemaDiff.layout(
                    "the partition spec",
                    describe(spec),
                    describe(partitionSpec(expected, actual)),
                    diffs);
        }
        return diffs;
    }

    /** A spec as {@code [bucket[16](id)]}, by source column name. */
    static String describe(PartitionSpec spec) {
        List<String> out = new ArrayList<>();
        for (PartitionField f : spec.fields()) {
            out.add(f.transform() + "(" + spec.schema().findColumnName(f.sourceId()) + ")");
        }
        return out.toString();
    }
}
