package dev.tributary.lake.paimon;

import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The maintenance contract (compaction, expiry, orphans) with the warehouse on S3-compatible object
 * storage (a real s3proxy server) behind Paimon's JDBC catalog on PostgreSQL with its lock (T45,
 * T46). Orphans are found by listing the bucket. Its tests run at once (each has its own warehouse
 * prefix and catalog key): they wait on S3 requests more than they compute, and one after another
 * they were the module's longest class (142 s against 90 s at once, the same CPU time).
 */
@Execution(ExecutionMode.CONCURRENT)
class PaimonS3JdbcLakeMaintenanceTest extends PaimonLakeMaintenanceTest {
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
