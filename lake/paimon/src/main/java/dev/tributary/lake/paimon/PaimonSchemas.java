package dev.tributary.lake.paimon;

import dev.tributary.common.types.Column;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.catalog.LakeSystemColumns;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.paimon.types.DataField;

/** The Paimon table Tributary creates for a descriptor, and how an existing one differs. */
final class PaimonSchemas {
    private PaimonSchemas() {}

    /**
     * Native options of a Tributary-created table. PK tables: fixed buckets routed by Paimon's own
     * bucket function over the Tributary bucket key, deduplicate merge engine. Log tables:
     * bucket-unaware append table. Always write-only: rows of one Paimon bucket may come from
     * several Tributary writers at once, and concurrent compactions of one bucket would make the
     * round's commit conflict; compaction is left to Paimon's dedicated compaction job.
     */
    static Map<String, String> tableOptions(TableDescriptor table, Map<String, String> overrides) {
        Map<String, String> o = new java.util.LinkedHashMap<>();
        if (table.hasPrimaryKey()) {
            o.put("bucket", Integer.toString(table.bucketCount()));
            o.put("bucket-key", String.join(",", table.bucketKeys()));
            o.put("merge-engine", "deduplicate");
        } else {
            o.put("bucket", "-1");
        }
        o.put("write-only", "true");
        o.putAll(overrides);
        return o;
    }

    static org.apache.paimon.schema.Schema toPaimonSchema(
            TableDescriptor table, Map<String, String> overrides) {
        Schema lake = LakeSystemColumns.lakeSchemaOf(table.schema());
        org.apache.paimon.schema.Schema.Builder b = org.apache.paimon.schema.Schema.newBuilder();
        for (Column c : lake.columns()) {
            b.column(c.name(), PaimonTypes.toPaimon(c.type()), c.comment());
        }
        if (table.hasPrimaryKey()) {
            b.primaryKey(table.schema().primaryKey());
        }
        b.options(tableOptions(table, overrides));
        table.comment().ifPresent(b::comment);
        return b.build();
    }

    /**
     * Differences between the lake table and what Tributary expects, one line each; empty when they
     * match.
     *
     * @param allowMissingTrailing when true, Tributary columns missing at the end of the lake's
     *     user columns are not differences (they are what {@code alterTable} adds)
     * @param allowExtraTrailing when true, extra nullable user columns in the lake after the
     *     expected ones are not differences (the lake was altered ahead of a stale descriptor)
     */
    static List<String> differences(
            TableDescriptor expected,
            List<DataField> actualFields,
            List<String> actualPrimaryKey,
            boolean allowMissingTrailing,
            boolean allowExtraTrailing) {
        List<String> diffs = new ArrayList<>();
        List<Column> want = expected.schema().columns();
        List<DataField> user = new ArrayList<>();
        List<DataField> system = new ArrayList<>();
        for (DataField f : actualFields) {
            (LakeSystemColumns.isSystemColumn(f.name()) ? system : user).add(f);
        }
        int common = Math.min(want.size(), user.size());
        for (int i = 0; i < common; i++) {
            Column c = want.get(i);
            DataField f = user.get(i);
            org.apache.paimon.types.DataType wantType = PaimonTypes.toPaimon(c.type());
            if (!f.name().equals(c.name())) {
                diffs.add(
                        "column "
                                + (i + 1)
                                + " is '"
                                + f.name()
                                + "' in the lake but '"
                                + c.name()
                                + "' in Tributary");
            } else if (!f.type().equals(wantType)) {
                diffs.add(
                        "column '"
                                + c.name()
                                + "' is "
                                + f.type().asSQLString()
                                + " in the lake but should be "
                                + wantType.asSQLString());
            }
        }
        if (want.size() > user.size() && !allowMissingTrailing) {
            for (Column c : want.subList(user.size(), want.size())) {
                diffs.add("column '" + c.name() + "' is missing in the lake");
            }
        }
        if (user.size() > want.size()) {
            for (DataField f : user.subList(want.size(), user.size())) {
                if (!allowExtraTrailing || !f.type().isNullable()) {
                    diffs.add("the lake has an extra column '" + f.name() + "'");
                }
            }
        }
        List<Column> sys = LakeSystemColumns.columns();
        List<String> sysNames = system.stream().map(DataField::name).toList();
        if (!sysNames.equals(LakeSystemColumns.NAMES)) {
            diffs.add(
                    "system columns are " + sysNames + " but should be " + LakeSystemColumns.NAMES);
        } else {
            for (int i = 0; i < sys.size(); i++) {
                org.apache.paimon.types.DataType wantType = PaimonTypes.toPaimon(sys.get(i).type());
                if (!system.get(i).type().equals(wantType)) {
                    diffs.add(
                            "system column '"
                                    + sys.get(i).name()
                                    + "' is "
                                    + system.get(i).type().asSQLString()
                                    + " but should be "
                                    + wantType.asSQLString());
                }
            }
            int firstSystem = actualFields.indexOf(system.get(0));
            if (firstSystem != actualFields.size() - system.size()) {
                diffs.add(
                        "system columns " + LakeSystemColumns.NAMES + " are not the last columns");
            }
        }
        if (!actualPrimaryKey.equals(expected.schema().primaryKey())) {
            diffs.add(
                    "the primary key is "
                            + actualPrimaryKey
                            + " in the lake but "
                            + expected.schema().primaryKey()
                            + " in Tributary");
        }
        return diffs;
    }
}
