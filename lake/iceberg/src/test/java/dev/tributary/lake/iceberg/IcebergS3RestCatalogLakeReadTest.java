package dev.tributary.lake.iceberg;

import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The read contract (T40) with the warehouse on S3-compatible object storage behind Iceberg's REST
 * catalog server (T45, T46): reads go through the catalog and Iceberg's S3FileIO.
 */
class IcebergS3RestCatalogLakeReadTest extends IcebergLakeReadTest {
    @RegisterExtension static final IcebergS3Lake LAKE = IcebergS3Lake.withRestCatalog();

    @Override
    protected Map<String, String> catalogProperties() {
        return LAKE.catalogProperties();
    }

    @Override
    protected String warehouseLocation() {
        return LAKE.warehouseLocation();
    }
}
