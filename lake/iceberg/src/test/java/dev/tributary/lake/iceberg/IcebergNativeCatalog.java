package dev.tributary.lake.iceberg;

import dev.tributary.lake.api.LakeStorageOptions;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;

/**
 * An Iceberg catalog opened with Iceberg's own {@code CatalogUtil}, independent of Tributary's, as
 * another engine sharing the catalog would open it: for tests that read or change a lake table
 * behind Tributary's back.
 */
final class IcebergNativeCatalog {
    private IcebergNativeCatalog() {}

    interface TableAction<T> {
        T apply(Table table) throws Exception;
    }

    interface CatalogAction<T> {
        T apply(Catalog catalog) throws Exception;
    }

    static <T> T withTable(
            Map<String, String> catalogProperties,
            String warehouse,
            TableIdentifier id,
            TableAction<T> action)
            throws Exception {
        return withCatalog(catalogProperties, warehouse, c -> action.apply(c.loadTable(id)));
    }

    static <T> T withCatalog(
            Map<String, String> catalogProperties, String warehouse, CatalogAction<T> action)
            throws Exception {
        Map<String, String> props = new HashMap<>(catalogProperties);
        boolean rest = "rest".equals(props.get(CatalogUtil.ICEBERG_CATALOG_TYPE));
        props.put(
                CatalogProperties.WAREHOUSE_LOCATION,
                rest ? warehouse : LakeStorageOptions.warehouseUri(warehouse));
        props.putIfAbsent(
                CatalogUtil.ICEBERG_CATALOG_TYPE, CatalogUtil.ICEBERG_CATALOG_TYPE_HADOOP);
        if (warehouse.startsWith("s3://")) {
            // another engine names its file IO itself
            props.putIfAbsent(CatalogProperties.FILE_IO_IMPL, IcebergObjectStores.S3_FILE_IO);
        }
        Catalog catalog =
                CatalogUtil.buildIcebergCatalog(
                        "tributary", props, new org.apache.hadoop.conf.Configuration());
        try {
            return action.apply(catalog);
        } finally {
            if (catalog instanceof AutoCloseable c) {
                c.close();
            }
        }
    }

    /** Every data and delete file some snapshot of the table reads, in one spelling. */
    static Set<String> referencedFiles(Table table) throws Exception {
        Set<String> out = new TreeSet<>();
        for (Snapshot s : table.snapshots()) {
            try (CloseableIterable<FileScanTask> tasks =
                    table.newScan().useSnapshot(s.snapshotId()).planFiles()) {
                for (FileScanTask t : tasks) {
                    out.add(IcebergOrphanFiles.normalize(t.file().location()));
                    t.deletes().forEach(d -> out.add(IcebergOrphanFiles.normalize(d.location())));
                }
            }
        }
        return out;
    }
}
