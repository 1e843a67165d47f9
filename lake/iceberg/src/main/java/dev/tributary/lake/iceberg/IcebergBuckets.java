package dev.tributary.lake.iceberg;

import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.LakeBucket;
import dev.tributary.lake.api.maintenance.LakeTableStats;
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
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.transforms.Transform;
import org.apache.iceberg.types.Types;

/**
 * Files of an Iceberg snapshot grouped by lake (partition, bucket): the bucket is the value of the
 * {@code bucket[N]} partition field Tributary creates (T36), -1 for the partition of NULL keys, 0
 * for files of a spec without one; the partition is the table's identity partition fields (T32),
 * named {@code k1=v1/k2=v2} as Tributary names partitions.
 */
final class IcebergBuckets {
    private IcebergBuckets() {}

    static int bucketOf(ContentFile<?> file, Map<Integer, PartitionSpec> specs) {
        PartitionSpec spec = specs.get(file.specId());
        if (spec == null || spec.isUnpartitioned()) {
            return 0;
        }
        // the bucket field follows the identity fields of a partitioned table: find it by kind
        List<PartitionField> fields = spec.fields();
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).transform().toString().startsWith("bucket[")) {
                Object v = file.partition().get(i, Object.class);
                return v == null ? -1 : ((Number) v).intValue();
            }
        }
        return 0;
    }

    /**
     * The lake partition of a file: its identity partition values as {@code k1=v1/k2=v2}, {@link
     * LakeTableStats#UNPARTITIONED} for a spec without identity fields.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static String partitionOf(ContentFile<?> file, Map<Integer, PartitionSpec> specs) {
        PartitionSpec spec = specs.get(file.specId());
        if (spec == null || spec.isUnpartitioned()) {
            return LakeTableStats.UNPARTITIONED;
        }
        StringBuilder name = new StringBuilder();
        List<PartitionField> fields = spec.fields();
        List<Types.NestedField> types = spec.partitionType().fields();
        for (int i = 0; i < fields.size(); i++) {
            PartitionField f = fields.get(i);
            if (!f.transform().isIdentity()) {
                continue;
            }
            if (name.length() > 0) {
                name.append('/');
            }
            Object v = file.partition().get(i, Object.class);
            name.append(spec.schema().findColumnName(f.sourceId()))
                    .append('=')
                    .append(((Transform) f.transform()).toHumanString(types.get(i).type(), v));
        }
        return name.toString();
    }

    /** A file's lake (partition, bucket). */
    static LakeBucket unitOf(ContentFile<?> file, Map<Integer, PartitionSpec> specs) {
        return new LakeBucket(partitionOf(file, specs), bucketOf(file, specs));
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
