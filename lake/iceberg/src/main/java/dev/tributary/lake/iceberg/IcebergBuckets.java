package dev.tributary.lake.iceberg;

import dev.tributary.common.exception.StorageException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * Files of an Iceberg snapshot grouped by lake bucket: the value of the {@code bucket[N]} partition
 * field Tributary creates (T36), -1 for the partition of NULL keys, 0 for files of an unpartitioned
 * spec.
 */
final class IcebergBuckets {
    private IcebergBuckets() {}

    static int bucketOf(ContentFile<?> file, Map<Integer, PartitionSpec> specs) {
        PartitionSpec spec = specs.get(file.specId());
        if (spec == null || spec.isUnpartitioned()) {
            return 0;
        }
        Object v = file.partition().get(0, Object.class);
        return v == null ? -1 : ((Number) v).intValue();
    }

    /** The live data files of {@code snapshot}, with their data sequence numbers. */
    static List<DataFile> liveDataFiles(Table table, Snapshot snapshot) {
        List<DataFile> out = new ArrayList<>();
        for (ManifestFile m : snapshot.dataManifests(table.io())) {
            try (ManifestReader<DataFile> r = ManifestFiles.read(m, table.io(), table.specs())) {
                for (DataFile f : r) {
                    out.add(f.copyWithoutStats());
                }
            } catch (IOException e) {
                throw manifestFailure(m, e);
            }
        }
        return out;
    }

    /** The live delete files of {@code snapshot}, with their data sequence numbers. */
    static List<DeleteFile> liveDeleteFiles(Table table, Snapshot snapshot) {
        List<DeleteFile> out = new ArrayList<>();
        for (ManifestFile m : snapshot.deleteManifests(table.io())) {
            try (ManifestReader<DeleteFile> r =
                    ManifestFiles.readDeleteManifest(m, table.io(), table.specs())) {
                for (DeleteFile f : r) {
                    out.add(f.copyWithoutStats());
                }
            } catch (IOException e) {
                throw manifestFailure(m, e);
            }
        }
        return out;
    }

    private static StorageException manifestFailure(ManifestFile m, IOException e) {
        return new StorageException(
                "reading manifest " + m.path() + " failed: " + e.getMessage(), e);
    }
}
