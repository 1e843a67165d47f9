package dev.tributary.lake.api.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.types.DataType;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Which differences between a lake table and its Tributary table are tolerated. */
class LakeSchemaDiffTest {
    private static final Function<DataType, String> TYPE = t -> t.root().name();
    private static final TableDescriptor TABLE =
            TableDescriptor.builder(
                            Schema.newBuilder()
                                    .column("id", DataTypes.INT().notNull())
                                    .column("name", DataTypes.STRING())
                                    .primaryKey("id")
                                    .build())
                    .build();

    private static LakeSchemaDiff.LakeField f(String name, String type, boolean nullable) {
        return new LakeSchemaDiff.LakeField(name, type, nullable);
    }

    private static List<LakeSchemaDiff.LakeField> lake(LakeSchemaDiff.LakeField... user) {
        List<LakeSchemaDiff.LakeField> out = new ArrayList<>(List.of(user));
        out.add(f("__bucket", "INT", false));
        out.add(f("__offset", "BIGINT", false));
        out.add(f("__timestamp", "TIMESTAMP_LTZ", false));
        return out;
    }

    private static List<String> diff(List<LakeSchemaDiff.LakeField> lake, List<String> pk) {
        return LakeSchemaDiff.differences(TABLE, lake, pk, TYPE, LakeSchemaDiff.Mode.COMPATIBLE);
    }

    @Test
    void safeChangesAreTolerated() {
        List<String> pk = List.of("id");
        assertThat(diff(lake(f("id", "INT", false), f("name", "STRING", true)), pk)).isEmpty();
        // moved columns, extra nullable columns anywhere, NOT NULL made nullable
        List<LakeSchemaDiff.LakeField> changed = new ArrayList<>();
        changed.add(f("note", "STRING", true));
        changed.add(f("name", "STRING", true));
        changed.add(f("id", "INT", true));
        changed.addAll(lake().subList(0, 3));
        changed.add(f("tail", "BIGINT", true));
        assertThat(diff(changed, pk)).isEmpty();
        assertThat(LakeSchemaDiff.positions(TABLE, changed.stream().map(x -> x.name()).toList()))
                .containsExactly(2, 1, 3, 4, 5);
    }

    @Test
    void changesThatCorruptDataAreNamed() {
        List<String> pk = List.of("id");
        assertThat(diff(lake(f("id", "INT", false)), pk))
                .containsExactly(
                        "column 'name' is missing in the lake (dropped or renamed outside"
                                + " Tributary)");
        assertThat(diff(lake(f("id", "BIGINT", false), f("name", "STRING", true)), pk))
                .containsExactly("column 'id' is BIGINT in the lake but should be INT");
        assertThat(diff(lake(f("id", "INT", false), f("name", "STRING", false)), pk))
                .singleElement()
                .asString()
                .contains("'name' is NOT NULL in the lake but nullable in Tributary");
        assertThat(
                        diff(
                                lake(
                                        f("id", "INT", false),
                                        f("name", "STRING", true),
                                        f("must", "INT", false)),
                                pk))
                .singleElement()
                .asString()
                .contains("extra NOT NULL column 'must'");
        assertThat(diff(lake(f("id", "INT", false), f("name", "STRING", true)), List.of("name")))
                .singleElement()
                .asString()
                .contains("the primary key is [name] in the lake");
        assertThat(diff(List.of(f("id", "INT", false), f("name", "STRING", true)), pk))
                .hasSize(3)
                .allSatisfy(d -> assertThat(d).contains("system column").contains("missing"));
    }

    @Test
    void aLakeBehindTributaryMayLackOnlyTrailingColumns() {
        TableDescriptor wider =
                TableDescriptor.builder(
                                Schema.newBuilder()
                                        .column("id", DataTypes.INT().notNull())
                                        .column("name", DataTypes.STRING())
                                        .column("email", DataTypes.STRING())
                                        .primaryKey("id")
                                        .build())
                        .build();
        List<String> pk = List.of("id");
        assertThat(
                        LakeSchemaDiff.differences(
                                wider,
                                lake(f("id", "INT", false), f("name", "STRING", true)),
                                pk,
                                TYPE,
                                LakeSchemaDiff.Mode.LAKE_BEHIND))
                .isEmpty();
        assertThat(
                        LakeSchemaDiff.differences(
                                wider,
                                lake(f("id", "INT", false), f("email", "STRING", true)),
                                pk,
                                TYPE,
                                LakeSchemaDiff.Mode.LAKE_BEHIND))
                .singleElement()
                .asString()
                .contains("'name' is missing");
    }
}
