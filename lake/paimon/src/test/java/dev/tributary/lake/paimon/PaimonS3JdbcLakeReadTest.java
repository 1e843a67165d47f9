package dev.tributary.lake.paimon;

import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The read contract with the warehouse on S3-compatible object storage (a real s3proxy server)
 * behind Paimon's JDBC catalog on PostgreSQL with its lock (T45, T46). Orphans are found by listing
 * the bucket.
 */
class PaimonS3JdbcLakeReadTest extends PaimonLakeReadTest {
    @RegisterExtension static final PaimonS3Lake LAKE = PaimonS3Lake.shared();

    @Override
    protected Map<String, String> catalogOptions() {
        return LAKE.catalogOptions(warehouse);
    }

    @Override
    protected String warehouseLocation() {
        return PaimonS3Lake.warehouse(warehouse);
    }
}
