package dev.tributary.lake.paimon;

import dev.tributary.lake.api.testing.S3Server;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The maintenance contract (compaction, expiry, orphans) with the warehouse on S3-compatible object
 * storage (a real s3proxy server) behind Paimon's JDBC catalog on PostgreSQL with its lock (T45,
 * T46). Orphans are found by listing the bucket.
 */
class PaimonS3JdbcLakeMaintenanceTest extends PaimonLakeMaintenanceTest {
    @TempDir static Path servers;
    static S3Server s3;
    static EmbeddedPostgres database;

    @BeforeAll
    static void startServers() {
        s3 = S3Server.start(servers.resolve("s3"), PaimonS3Lake.BUCKET);
        database = PaimonS3Lake.startDatabase();
    }

    @AfterAll
    static void stopServers() throws Exception {
        if (database != null) {
            database.close();
        }
        if (s3 != null) {
            s3.close();
        }
    }

    @Override
    protected Map<String, String> catalogOptions() {
        return PaimonS3Lake.catalogOptions(s3, database, warehouse);
    }

    @Override
    protected String warehouseLocation() {
        return PaimonS3Lake.warehouse(warehouse);
    }
}
