package dev.tributary.lake.api.catalog;

import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataType;
import dev.tributary.common.types.TableDescriptor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Compares an existing lake table with the one Tributary would create, for format implementations
 * of {@link LakeCatalog#validateTable} and of their writers. Columns are matched by name, so what
 * other engines may safely do to a lake table is tolerated:
 *
 * <ul>
 *   <li>extra nullable columns, anywhere (tiering writes NULL into them);
 *   <li>columns moved to another position (writers place values by name);
 *   <li>a Tributary NOT NULL column made nullable in the lake;
 *   <li>comments and table options that do not decide the layout (formats add their layout checks,
 *       see {@link #layout}).
 * </ul>
 *
 * What would corrupt data is refused, one line per difference: a Tributary column missing (dropped
 * or renamed), a different type, a lake NOT NULL column Tributary might leave NULL (its own or an
 * extra one), a missing or retyped system column, another primary key. Types are compared on the
 * lake's native type names without nullability, so messages show the lake's own vocabulary.
 */
public final class LakeSchemaDiff {
    private LakeSchemaDiff() {}

    /**
     * A column of the existing lake table.
     *
     * @param name column name
     * @param type the native type rendered by the same function as {@code nativeType} in {@link
     *     #differences}, WITHOUT nullability
     * @param nullable whether the column accepts NULL
     */
    public record LakeField(String name, String type, boolean nullable) {}

    /** Which differences are tolerated. */
    public enum Mode {
        /**
         * The lake table can take Tributary's rows: every Tributary column is there (by name), with
         * its type; extra lake columns are nullable. What writers and {@link
         * LakeCatalog#validateTable} require.
         */
        COMPATIBLE,
        /**
         * Like {@link #COMPATIBLE}, and Tributary columns missing at the end of Tributary's column
         * list are tolerated: they are what {@link LakeCatalog#alterTable} adds.
         */
        LAKE_BEHIND
    }

    /**
     * One line per difference; empty when the table can be tiered into under {@code mode}.
     *
     * @param nativeType renders a Tributary type as the lake's native type name, without
     *     nullability
     */
    public static List<String> differences(
            TableDescriptor expected,
            List<LakeField> actual,
            List<String> actualPrimaryKey,
            Function<DataType, String> nativeType,
            Mode mode) {
        List<String> diffs = new ArrayList<>();
        Map<String, LakeField> byName = new HashMap<>();
        for (LakeField f : actual) {
            byName.put(f.name(), f);
        }
        List<Column> want = expected.schema().columns();
        int present = want.size();
        if (mode == Mode.LAKE_BEHIND) {
            while (present > 0 && !byName.containsKey(want.get(present - 1).name())) {
                present--;
            }
        }
        Set<String> known = new HashSet<>(LakeSystemColumns.NAMES);
        for (int i = 0; i < want.size(); i++) {
            Column c = want.get(i);
            known.add(c.name());
            LakeField f = byName.get(c.name());
            if (f == null) {
                if (i < present) {
                    diffs.add(
                            "column '"
                                    + c.name()
                                    + "' is missing in the lake (dropped or renamed outside"
                                    + " Tributary)");
                }
                continue;
            }
            compare("column", c, f, nativeType, diffs);
        }
        for (Column c : LakeSystemColumns.columns()) {
            LakeField f = byName.get(c.name());
            if (f == null) {
                diffs.add("system column '" + c.name() + "' is missing in the lake");
            } else {
                compare("system column", c, f, nativeType, diffs);
            }
        }
        for (LakeField f : actual) {
            if (!known.contains(f.name()) && !f.nullable()) {
                diffs.add(
                        "the lake has an extra NOT NULL column '"
                                + f.name()
                                + "' that Tributary cannot fill (make it nullable or drop it)");
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

    private static void compare(
            String what,
            Column c,
            LakeField f,
            Function<DataType, String> nativeType,
            List<String> diffs) {
        String wantType = nativeType.apply(c.type());
        if (!f.type().equals(wantType)) {
            diffs.add(
                    what
                            + " '"
                            + c.name()
                            + "' is "
                            + f.type()
                            + " in the lake but should be "
                            + wantType);
        } else if (!f.nullable() && c.type().isNullable()) {
            diffs.add(
                    what
                            + " '"
                            + c.name()
                            + "' is NOT NULL in the lake but nullable in Tributary: its NULLs could"
                            + " not be written");
        }
    }

    /**
     * A difference in a layout property that decides where rows land (bucket count, bucket key,
     * merge engine...), or nothing when equal.
     *
     * @param what the property, as the lake names it
     */
    public static void layout(String what, Object inLake, Object expected, List<String> diffs) {
        if (!String.valueOf(inLake).equals(String.valueOf(expected))) {
            diffs.add(what + " is " + inLake + " in the lake but " + expected + " in Tributary");
        }
    }

    /**
     * For each Tributary column and then each system column, its position among the lake table's
     * columns {@code lakeColumnNames}; -1 for a Tributary column the lake does not have yet.
     * Writers fill a lake row through it, leaving every other lake column NULL.
     */
    public static int[] positions(TableDescriptor table, List<String> lakeColumnNames) {
        List<Column> cols = table.schema().columns();
        int[] out = new int[cols.size() + LakeSystemColumns.NAMES.size()];
        for (int i = 0; i < cols.size(); i++) {
            out[i] = lakeColumnNames.indexOf(cols.get(i).name());
        }
        for (int i = 0; i < LakeSystemColumns.NAMES.size(); i++) {
            out[cols.size() + i] = lakeColumnNames.indexOf(LakeSystemColumns.NAMES.get(i));
        }
        return out;
    }
}
