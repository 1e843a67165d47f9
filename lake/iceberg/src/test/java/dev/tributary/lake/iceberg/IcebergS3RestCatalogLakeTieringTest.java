package dev.tributary.lake.iceberg;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole lake contract with the warehouse on S3-compatible object storage (a real s3proxy
 * server) behind Iceberg's REST catalog server (T45, T46): Tributary's writes go through Iceberg's
 * S3FileIO, its commits through the REST catalog, which checks each commit's requirements. Each
 * test gets its own catalog server and warehouse prefix.
 */
class IcebergS3RestCatalogLakeTieringTest extends IcebergLakeTieringTest {
    @RegisterExtension static final IcebergS3Lake LAKE = IcebergS3Lake.withRestCatalog();

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
