package dev.tributary.lake.api.catalog;

import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataType;
import dev.tributary.common.types.TableDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Compares an existing lake table with the one Tributary would create, for format implementations
 * of {@link LakeCatalog#validateTable}. Works on native type names so messages show the lake's own
 * vocabulary.
 */
public final class LakeSchemaDiff {
    private LakeSchemaDiff() {}

    /**
     * A column of the existing lake table.
     *
     * @param name column name
     * @param type the native type rendered by the same function as {@code nativeType} in {@link
     *     #differences}, nullability included
     * @param nullable whether the column accepts NULL
     */
    public record LakeField(String name, String type, boolean nullable) {}

    /** Which differences are tolerated. */
    public enum Mode {
        /** The lake table must be exactly what Tributary creates. */
        EXACT,
        /**
         * Tributary columns missing at the end of the lake's user columns are tolerated: they are
         * what {@link LakeCatalog#alterTable} adds.
         */
        LAKE_BEHIND,
        /**
         * Extra nullable user columns after the expected ones are tolerated: the lake was altered
         * ahead of the writer's descriptor; writers leave them NULL.
         */
        LAKE_AHEAD
    }

    /**
     * One line per difference; empty when the table matches under {@code mode}.
     *
     * @param nativeType renders a Tributary type as the lake's native type name
     */
    public static List<String> differences(
            TableDescriptor expected,
            List<LakeField> actual,
            List<String> actualPrimaryKey,
            Function<DataType, String> nativeType,
            Mode mode) {
        List<String> diffs = new ArrayList<>();
        List<Column> want = expected.schema().columns();
        List<LakeField> user = new ArrayList<>();
        List<LakeField> system = new ArrayList<>();
        for (LakeField f : actual) {
            (LakeSystemColumns.isSystemColumn(f.name()) ? system : user).add(f);
        }
        int common = Math.min(want.size(), user.size());
        for (int i = 0; i < common; i++) {
            Column c = want.get(i);
            LakeField f = user.get(i);
            String wantType = nativeType.apply(c.type());
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
                                + f.type()
                                + " in the lake but should be "
                                + wantType);
            }
        }
        if (want.size() > user.size() && mode != Mode.LAKE_BEHIND) {
            for (Column c : want.subList(user.size(), want.size())) {
                diffs.add("column '" + c.name() + "' is missing in the lake");
            }
        }
        if (user.size() > want.size()) {
            for (LakeField f : user.subList(want.size(), user.size())) {
                if (mode != Mode.LAKE_AHEAD || !f.nullable()) {
                    diffs.add("the lake has an extra column '" + f.name() + "'");
                }
            }
        }
        List<Column> sys = LakeSystemColumns.columns();
        List<String> sysNames = system.stream().map(LakeField::name).toList();
        if (!sysNames.equals(LakeSystemColumns.NAMES)) {
            diffs.add(
                    "system columns are " + sysNames + " but should be " + LakeSystemColumns.NAMES);
        } else {
            for (int i = 0; i < sys.size(); i++) {
                String wantType = nativeType.apply(sys.get(i).type());
                if (!system.get(i).type().equals(wantType)) {
                    diffs.add(
                            "system column '"
                                    + sys.get(i).name()
                                    + "' is "
                                    + system.get(i).type()
                                    + " but should be "
                                    + wantType);
                }
            }
            if (actual.indexOf(system.get(0)) != actual.size() - system.size()) {
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
