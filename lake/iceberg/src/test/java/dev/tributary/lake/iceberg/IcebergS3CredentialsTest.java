package dev.tributary.lake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.testing.S3Server;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T45: without {@code s3.access-key-id}/{@code s3.secret-access-key} in the configuration, S3FileIO
 * signs with what the AWS SDK's default provider chain finds (here its first link, the {@code
 * aws.accessKeyId}/{@code aws.secretAccessKey} system properties; in production also the
 * environment, the profile and the instance or pod role). Tributary forces no keys.
 */
class IcebergS3CredentialsTest {
    private static final String BUCKET = "lake";
    @TempDir static Path servers;
    private static S3Server s3;

    @TempDir Path dir;

    @BeforeAll
    static void startS3() {
        s3 = S3Server.start(servers.resolve("s3"), BUCKET);
    }

    @AfterAll
    static void stopS3() {
        if (s3 != null) {
            s3.close();
        }
    }

    @AfterEach
    void clearChain() {
        System.clearProperty("aws.accessKeyId");
        System.clearProperty("aws.secretAccessKey");
    }

    private LakeStorage storage() {
        return LakeStoragePlugins.find("iceberg")
                .createLakeStorage(
                        Configuration.fromMap(
                                Map.of(
                                        "warehouse",
                                        "s3://" + BUCKET + "/chain",
                                        "type",
                                        "jdbc",
                                        "uri",
                                        "jdbc:sqlite:" + dir.resolve("catalog.db"),
                                        "s3.endpoint",
                                        s3.endpoint(),
                                        "s3.path-style-access",
                                        "true",
                                        "client.region",
                                        S3Server.REGION)));
    }

    private static TableDescriptor table() {
        return TableDescriptor.builder(
                        Schema.newBuilder()
                                .column("id", DataTypes.BIGINT())
                                .column("name", DataTypes.STRING())
                                .build())
                .bucketCount(1)
                .build();
    }

    @Test
    void t45_withoutKeysInTheConfigurationTheSdksDefaultProviderChainSigns() {
        System.setProperty("aws.accessKeyId", S3Server.ACCESS_KEY);
        System.setProperty("aws.secretAccessKey", "not-the-secret");
        try (LakeStorage storage = storage()) {
            assertThatThrownBy(
                            () ->
                                    storage.catalog()
                                            .createTable(TablePath.of("db", "refused"), table()))
                    .as("the store refuses what the chain signed with a wrong secret");
        }
        assertThat(s3.keys(BUCKET, "chain/")).isEmpty();

        System.setProperty("aws.secretAccessKey", S3Server.SECRET_KEY);
        try (LakeStorage storage = storage()) {
            storage.catalog().createTable(TablePath.of("db", "signed"), table());
        }
        assertThat(s3.keys(BUCKET, "chain/db/signed/metadata/")).isNotEmpty();
    }
}
