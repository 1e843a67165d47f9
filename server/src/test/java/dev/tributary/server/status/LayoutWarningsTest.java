package dev.tributary.server.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import org.junit.jupiter.api.Test;

class LayoutWarningsTest {
    private static final Schema PK =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .build();

    private static TableDescriptor table(Schema schema, String... props) {
        TableDescriptor.Builder b = TableDescriptor.builder(schema).bucketCount(12);
        for (int i = 0; i < props.length; i += 2) {
            b.property(props[i], props[i + 1]);
        }
        return b.build();
    }

    @Test
    void t36_aTableWhoseFunctionIsNotItsLakeFormatsIsWarnedAbout() {
        // created before T36: no property, Tributary's hash
        assertThat(LayoutWarnings.of(table(PK), "paimon"))
                .singleElement()
                .asString()
                .contains("'tributary' is not the lake format's ('paimon')")
                .contains("144 data files per round instead of 12")
                .contains("create a new table");
        assertThat(LayoutWarnings.of(table(PK, "table.bucket.function", "paimon"), "iceberg"))
                .singleElement()
                .asString()
                .contains("('iceberg')");
        assertThat(
                        LayoutWarnings.of(
                                table(
                                        PK,
                                        "table.bucket.function",
                                        "paimon",
                                        "table.datalake.format",
                                        "paimon"),
                                "iceberg"))
                .isEmpty();
        assertThat(LayoutWarnings.of(table(PK, "table.bucket.function", "iceberg"), "iceberg"))
                .isEmpty();
        Schema composite =
                Schema.newBuilder()
                        .column("a", DataTypes.INT())
                        .column("b", DataTypes.INT())
                        .primaryKey("a", "b")
                        .build();
        assertThat(LayoutWarnings.of(table(composite), "iceberg"))
                .singleElement()
                .asString()
                .contains("not partitioned by key");
        // no bucket key: nothing to align
        Schema log = Schema.newBuilder().column("v", DataTypes.STRING()).build();
        assertThat(LayoutWarnings.of(table(log), "paimon")).isEmpty();
    }
}
