package dev.tributary.server.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.config.Configuration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LakeLocationTest {

    @Test
    void t46_theCatalogKindAndUriAndTheWarehouseWithoutCredentials() {
        LakeLocation l =
                LakeLocation.of(
                        Configuration.fromMap(
                                Map.of(
                                        "datalake.format", "iceberg",
                                        "datalake.iceberg.type", "jdbc",
                                        "datalake.iceberg.uri",
                                                "jdbc:postgresql://db/cat?user=t&password=hunter2",
                                        "datalake.iceberg.jdbc.password", "hunter2",
                                        "datalake.iceberg.warehouse", "s3://lake/w",
                                        "datalake.iceberg.s3.secret-access-key", "s3cr3t")));
        assertThat(l.format()).isEqualTo("iceberg");
        assertThat(l.catalog()).isEqualTo("jdbc jdbc:postgresql://db/cat?user=t&password=******");
        assertThat(l.warehouse()).isEqualTo("s3://lake/w");
        assertThat(l.toString() + l.describe()).doesNotContain("hunter2", "s3cr3t");
    }

    @Test
    void t46_withoutACatalogTheFormatKeepsItInTheWarehouse() {
        LakeLocation l =
                LakeLocation.of(
                        Configuration.fromMap(
                                Map.of(
                                        "datalake.format", "paimon",
                                        "datalake.paimon.warehouse", "file:/data/lake")));
        assertThat(l).isEqualTo(new LakeLocation("paimon", "filesystem", "file:/data/lake"));
        LakeLocation hive =
                LakeLocation.of(
                        Configuration.fromMap(
                                Map.of(
                                        "datalake.format", "paimon",
                                        "datalake.paimon.metastore", "hive",
                                        "datalake.paimon.uri", "thrift://hms:9083",
                                        "datalake.paimon.warehouse", "s3://b/w")));
        assertThat(hive.catalog()).isEqualTo("hive thrift://hms:9083");
    }
}
