package dev.tributary.lake.iceberg;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole lake contract with the warehouse on S3-compatible object storage (a real s3proxy
 * server) behind Iceberg's JDBC catalog on a SQLite database file (T45, T46). No {@code io-impl} is
 * configured: Tributary opens an s3:// warehouse with Iceberg's S3FileIO by itself.
 */
class IcebergS3JdbcCatalogLakeTieringTest extends IcebergLakeTieringTest {
    @RegisterExtension static final IcebergS3Lake LAKE = IcebergS3Lake.withJdbcCatalog();

    @Override
    protected Map<String, String> catalogProperties() {
        return LAKE.catalogProperties();
    }

    @Override
    protected String warehouseLocation() {
        return LAKE.warehouseLocation();
    }

    @Override
    protected Path warehouseDir() {
        return LAKE.warehouseDir();
    }
}
