package dev.tributary.lake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.TablePath;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.OrphanPolicy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The maintenance contract (compaction, expiry, the orphan sweep) with the warehouse on
 * S3-compatible object storage behind Iceberg's REST catalog server (T45, T46, T38, T39, T23).
 * After every test, what the bucket holds is checked object by object: the sweep lists exactly the
 * objects no snapshot references, and once it ran the bucket holds exactly the referenced ones.
 */
class IcebergS3RestCatalogLakeMaintenanceTest extends IcebergLakeMaintenanceTest {
    @RegisterExtension static final IcebergS3Lake LAKE = IcebergS3Lake.withRestCatalog();

    @Override
    protected Map<String, String> catalogProperties() {
        return LAKE.catalogProperties();
    }

    @Override
    protected String warehouseLocation() {
        return LAKE.warehouseLocation();
    }

    @AfterEach
    void t23_t45_theSweepLeavesTheBucketHoldingOnlyWhatSnapshotsReference() throws Exception {
        List<TableIdentifier> tables =
                IcebergNativeCatalog.withCatalog(
                        catalogProperties(),
                        warehouseLocation(),
                        c -> c.listTables(Namespace.of("db")));
        assertThat(tables).as("every test tiers a table").isNotEmpty();
        OrphanPolicy all = OrphanPolicy.olderThan(Instant.parse("2999-01-01T00:00:00Z"));
        for (TableIdentifier id : tables) {
            Set<String> referenced =
                    IcebergNativeCatalog.withTable(
                            catalogProperties(),
                            warehouseLocation(),
                            id,
                            IcebergNativeCatalog::referencedFiles);
            String data = "db/" + id.name() + "/data/";
            List<String> unreferenced = new ArrayList<>(LAKE.objects(data));
            assertThat(unreferenced)
                    .as("%s: the bucket holds every referenced file", id)
                    .containsAll(referenced);
            unreferenced.removeAll(referenced);
            try (LakeCommitter c = storage.createCommitter(TablePath.of("db", id.name()))) {
                assertThat(normalized(c.listOrphanFiles(all)))
                        .as("%s: the sweep lists what no snapshot references", id)
                        .containsExactlyInAnyOrderElementsOf(unreferenced);
                c.deleteOrphanFiles(all);
            }
            assertThat(LAKE.objects(data))
                    .as("%s: after the sweep", id)
                    .containsExactlyInAnyOrderElementsOf(referenced);
        }
    }
}
