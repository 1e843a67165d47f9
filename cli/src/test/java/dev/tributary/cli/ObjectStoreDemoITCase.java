package dev.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.lake.api.testing.IcebergRestCatalogServer;
import dev.tributary.lake.api.testing.S3Server;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution (the fat jar, in its own JVM) runs the demo into a lake on S3-compatible object
 * storage (a real s3proxy server) behind Iceberg's REST catalog server: the S3 file IO ships in the
 * jar (T45), the tables are created and committed through the catalog (T46), the demo's union read
 * counts come back through the same lake (T40), and the secret key given on the command line never
 * appears in what it prints or logs.
 */
class ObjectStoreDemoITCase {
    private static final String BUCKET = "lake";

    @TempDir Path dir;

    @Test
    void t45_t46_theDistributionTiersTheDemoIntoIcebergOnS3ThroughTheRestCatalog()
            throws Exception {
        Path data = dir.resolve("data");
        try (S3Server s3 = S3Server.start(dir.resolve("s3"), BUCKET);
                IcebergRestCatalogServer rest =
                        IcebergRestCatalogServer.startOnS3(
                                dir.resolve("rest"), "s3://" + BUCKET + "/warehouse", s3)) {
            DemoRun run =
                    DemoRun.ofDistribution(
                                    dir,
                                    "demo",
                                    "--fast",
                                    "--lake-format",
                                    "iceberg",
                                    // 20 s of writes, under the slowest table's
                                    // freshness (30 s): its first round holds every
                                    // row, so the demo's wait for each table's last
                                    // round ends a freshness sooner than after 30 s
                                    "--duration",
                                    "20s",
                                    "--rate",
                                    "300",
                                    "--parallelism",
                                    "2",
                                    "--seed",
                                    "5",
                                    "--data-dir",
                                    data.toString(),
                                    "--set",
                                    "datalake.iceberg.warehouse=s3://" + BUCKET + "/warehouse",
                                    "--set",
                                    "datalake.iceberg.type=rest",
                                    "--set",
                                    "datalake.iceberg.uri=" + rest.uri(),
                                    "--set",
                                    "datalake.iceberg.io-impl=org.apache.iceberg.aws.s3.S3FileIO",
                                    "--set",
                                    "datalake.iceberg.s3.endpoint=" + s3.endpoint(),
                                    "--set",
                                    "datalake.iceberg.s3.path-style-access=true",
                                    "--set",
                                    "datalake.iceberg.client.region=" + S3Server.REGION,
                                    "--set",
                                    "datalake.iceberg.s3.access-key-id=" + S3Server.ACCESS_KEY,
                                    "--set",
                                    "datalake.iceberg.s3.secret-access-key=" + S3Server.SECRET_KEY)
                            .assertRoundsOfAllTables()
                            .assertClosingLinesAfterTheLastRounds();
            assertThat(run.out())
                    .contains("iceberg lake, catalog rest " + rest.uri())
                    .contains("warehouse s3://" + BUCKET + "/warehouse");

            // the rows are objects in the bucket, not files under the data directory
            for (String table : List.of("clicks", "orders", "customers")) {
                assertThat(s3.keys(BUCKET, "warehouse/shop/" + table + "/data/"))
                        .as("data objects of shop.%s", table)
                        .isNotEmpty();
            }
            assertThat(data.resolve("lake")).doesNotExist();

            assertThat(run.out() + run.err()).doesNotContain(S3Server.SECRET_KEY);
            try (var files = Files.walk(data)) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    assertThat(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1))
                            .as("%s holds no secret", f)
                            .doesNotContain(S3Server.SECRET_KEY);
                }
            }
        }
    }
}
