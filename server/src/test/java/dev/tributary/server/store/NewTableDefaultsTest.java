package dev.tributary.server.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import org.junit.jupiter.api.Test;

class NewTableDefaultsTest {
    private static final Schema PK =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .build();
    private static final Schema COMPOSITE =
            Schema.newBuilder()
                    .column("a", DataTypes.INT())
                    .column("b", DataTypes.STRING())
                    .primaryKey("a", "b")
                    .build();
    private static final Schema LOG = Schema.newBuilder().column("v", DataTypes.STRING()).build();

    private static String function(TableDescriptor d) {
        return d.properties().get("table.bucket.function");
    }

    @Test
    void t36_newTablesGetTheLakeFormatsFunctionWhetherOrNotTheyAreLakeEnabled() {
        NewTableDefaults paimon = new NewTableDefaults("paimon");
        NewTableDefaults iceberg = new NewTableDefaults("iceberg");
        TableDescriptor pk = TableDescriptor.builder(PK).bucketCount(4).build();
        assertThat(function(paimon.apply(pk))).isEqualTo("paimon");
        assertThat(function(iceberg.apply(pk))).isEqualTo("iceberg");
        TableDescriptor enabled =
                TableDescriptor.builder(PK)
                        .bucketCount(4)
                        .property("table.datalake.enabled", "true")
                        .build();
        assertThat(function(iceberg.apply(enabled))).isEqualTo("iceberg");
        // everything else is kept
        assertThat(iceberg.apply(enabled).properties())
                .containsEntry("table.datalake.enabled", "true");
        assertThat(iceberg.apply(enabled).bucketKeys()).containsExactly("id");
        // log tables without a bucket key record it too (it is never used)
        assertThat(function(paimon.apply(TableDescriptor.builder(LOG).build())))
                .isEqualTo("paimon");
    }

    @Test
    void t36_theTablesOwnFormatAndAnExplicitFunctionWin() {
        NewTableDefaults paimon = new NewTableDefaults("paimon");
        assertThat(
                        function(
                                paimon.apply(
                                        TableDescriptor.builder(PK)
                                                .property("table.datalake.format", "iceberg")
                                                .build())))
                .isEqualTo("iceberg");
        TableDescriptor explicit =
                TableDescriptor.builder(PK).property("table.bucket.function", "tributary").build();
        assertThat(paimon.apply(explicit)).isEqualTo(explicit);
        // a format Tributary has no function for keeps Tributary's hash
        assertThat(
                        function(
                                new NewTableDefaults("hudi")
                                        .apply(TableDescriptor.builder(PK).build())))
                .isEqualTo("tributary");
    }

    @Test
    void t36_aKeyIcebergCannotBucketFailsALakeTableAndFallsBackForAStoreOnlyTable() {
        NewTableDefaults iceberg = new NewTableDefaults("iceberg");
        TableDescriptor storeOnly = TableDescriptor.builder(COMPOSITE).bucketCount(4).build();
        assertThat(function(iceberg.apply(storeOnly))).isEqualTo("tributary");
        TableDescriptor lake =
                TableDescriptor.builder(COMPOSITE)
                        .bucketCount(4)
                        .property("table.datalake.enabled", "true")
                        .build();
        assertThatThrownBy(() -> iceberg.apply(lake))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("tiered into iceberg")
                .hasMessageContaining("[a, b]")
                .hasMessageContaining("--bucket-key")
                .hasMessageContaining("table.bucket.function=tributary");
        // the way out the message names works
        TableDescriptor oneColumn =
                TableDescriptor.builder(COMPOSITE)
                        .bucketCount(4)
                        .bucketKeys("a")
                        .property("table.datalake.enabled", "true")
                        .build();
        assertThat(function(iceberg.apply(oneColumn))).isEqualTo("iceberg");
        // Paimon buckets any key
        assertThat(function(new NewTableDefaults("paimon").apply(lake))).isEqualTo("paimon");
    }
}
