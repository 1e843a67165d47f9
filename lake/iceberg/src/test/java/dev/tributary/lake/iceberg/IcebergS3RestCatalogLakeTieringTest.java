package dev.tributary.lake.iceberg;

import dev.tributary.lake.api.testing.IcebergRestCatalogServer;
import dev.tributary.lake.api.testing.S3Server;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole lake contract with the warehouse on S3-compatible object storage (a real s3proxy
 * server) behind Iceberg's REST catalog server (T45, T46): Tributary's writes go through Iceberg's
 * S3FileIO, its commits through the REST catalog, which checks each commit's requirements.
 */
class IcebergS3RestCatalogLakeTieringTest extends IcebergLakeTieringTest {
    private static final String BUCKET = "lake";
    @TempDir static Path servers;
    private static S3Server s3;
    private static IcebergRestCatalogServer rest;

    @BeforeAll
    static void startServers() {
        s3 = S3Server.start(servers.resolve("s3"), BUCKET);
        rest =
                IcebergRestCatalogServer.startOnS3(
                        servers.resolve("rest"), "s3://" + BUCKET + "/warehouse", s3);
    }

    @AfterAll
    static void stopServers() {
        if (rest != null) {
            rest.close();
        }
        if (s3 != null) {
            s3.close();
        }
    }

    @Override
    protected Map<String, String> catalogProperties() {
        return Map.of(
                "type",
                "rest",
                "uri",
                rest.uri(),
                "io-impl",
                "org.apache.iceberg.aws.s3.S3FileIO",
                "s3.endpoint",
                s3.endpoint(),
                "s3.path-style-access",
                "true",
                "s3.access-key-id",
                S3Server.ACCESS_KEY,
                "s3.secret-access-key",
                S3Server.SECRET_KEY,
                "client.region",
                S3Server.REGION);
    }

    @Override
    protected String warehouseLocation() {
        return "s3://" + BUCKET + "/warehouse";
    }

    @Override
    protected Path warehouseDir() {
        return s3.bucketDir(BUCKET).resolve("warehouse");
    }
}
