package dev.tributary.lake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.Secrets;
import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.lake.api.LakeStoragePlugins;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How an Iceberg warehouse on object storage is opened (T45): S3FileIO by default, the Hadoop
 * catalog refused with the fix named, and credentials never in an error.
 */
class IcebergObjectStoresTest {
    private static final String SECRET = "wJalrXUtnFEMI-not-a-real-key-7c2";

    @TempDir Path dir;

    private static InvalidConfigException open(Map<String, String> options) {
        Map<String, String> conf = new HashMap<>(options);
        conf.put("s3.access-key-id", "AKIATESTKEY");
        conf.put("s3.secret-access-key", SECRET);
        InvalidConfigException[] thrown = new InvalidConfigException[1];
        assertThatThrownBy(
                        () ->
                                LakeStoragePlugins.find("iceberg")
                                        .createLakeStorage(Configuration.fromMap(conf))
                                        .close())
                .isInstanceOfSatisfying(InvalidConfigException.class, e -> thrown[0] = e);
        return thrown[0];
    }

    @Test
    void t45_theHadoopCatalogOnAnObjectStoreIsRefusedNamingTheCatalogsToUseInstead() {
        for (Map<String, String> conf :
                java.util.List.of(
                        Map.of("warehouse", "s3://lake/warehouse"),
                        Map.of("warehouse", "s3a://lake/warehouse", "type", "hadoop"),
                        Map.of(
                                "warehouse",
                                "gs://lake/warehouse",
                                "catalog-impl",
                                "org.apache.iceberg.hadoop.HadoopCatalog"))) {
            InvalidConfigException e = open(conf);
            assertThat(e.getMessage())
                    .as("%s", conf)
                    .contains(conf.get("warehouse"))
                    .contains("not atomic")
                    .contains("'datalake.iceberg.type: rest' with 'datalake.iceberg.uri")
                    .contains("'datalake.iceberg.type: jdbc' with 'datalake.iceberg.uri")
                    .contains("'datalake.iceberg.type: hive'")
                    .doesNotContain(SECRET);
        }
    }

    @Test
    void t45_aCatalogThatCannotOpenNamesItsPropertiesButNeverTheSecret() {
        InvalidConfigException e =
                open(
                        Map.of(
                                "warehouse",
                                "s3://lake/warehouse",
                                "type",
                                "jdbc",
                                "uri",
                                "jdbc:no-such-driver:" + dir.resolve("catalog")));
        assertThat(e.getMessage())
                .contains("cannot open the Iceberg catalog")
                .contains("s3.access-key-id=AKIATESTKEY")
                .contains("s3.secret-access-key=" + Secrets.MASK)
                .doesNotContain(SECRET);
    }

    @Test
    void t45_secretValuesAreMaskedInAMessageFromTheCatalog() {
        Map<String, String> props =
                Map.of("s3.secret-access-key", SECRET, "uri", "http://catalog:8181/");
        assertThat(
                        IcebergObjectStores.withoutSecrets(
                                "refused http://catalog:8181/ with key " + SECRET, props))
                .isEqualTo("refused http://catalog:8181/ with key " + Secrets.MASK);
    }

    @Test
    void t45_anS3WarehouseGetsS3FileIoUnlessAnotherIsConfigured() {
        for (String scheme : java.util.List.of("s3", "s3a", "s3n")) {
            Map<String, String> p =
                    IcebergObjectStores.catalogProperties(
                            Map.of("type", "jdbc", "uri", "jdbc:sqlite:x"),
                            scheme + "://lake/warehouse");
            assertThat(p)
                    .containsEntry("io-impl", IcebergObjectStores.S3_FILE_IO)
                    .containsEntry("warehouse", scheme + "://lake/warehouse")
                    .as("no credentials forced: the SDK's default provider chain applies")
                    .doesNotContainKeys("s3.access-key-id", "s3.secret-access-key");
        }
        assertThat(
                        IcebergObjectStores.catalogProperties(
                                Map.of("type", "rest", "uri", "http://c/", "io-impl", "my.FileIO"),
                                "s3://lake/warehouse"))
                .containsEntry("io-impl", "my.FileIO");
        assertThat(IcebergObjectStores.catalogProperties(Map.of(), dir.toString()))
                .containsEntry("type", "hadoop")
                .doesNotContainKey("io-impl");
    }

    @Test
    void t46_aRestCatalogsWarehouseIsPassedAsGivenForItMayNameACatalogOfTheServer() {
        assertThat(
                        IcebergObjectStores.catalogProperties(
                                Map.of("type", "rest", "uri", "http://c/"), "analytics"))
                .containsEntry("warehouse", "analytics");
    }

    @Test
    void t23_anS3ObjectHasOneSpellingWhateverSchemeNamedIt() {
        assertThat(IcebergOrphanFiles.normalize("s3a://lake/w/db/t/data/f.parquet"))
                .isEqualTo("s3://lake/w/db/t/data/f.parquet");
        assertThat(IcebergOrphanFiles.normalize("s3n://lake/w/db/t/data/f.parquet"))
                .isEqualTo("s3://lake/w/db/t/data/f.parquet");
        assertThat(IcebergOrphanFiles.normalize("s3://lake/w/db/t/data/f.parquet"))
                .isEqualTo("s3://lake/w/db/t/data/f.parquet");
        assertThat(IcebergOrphanFiles.normalize("file:///tmp/w/f.parquet"))
                .isEqualTo("/tmp/w/f.parquet");
    }
}
