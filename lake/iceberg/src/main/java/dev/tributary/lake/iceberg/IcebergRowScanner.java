package dev.tributary.lake.iceberg;

import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.index.LakeRowLocation;
import dev.tributary.lake.api.index.LakeRowScanner;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * The server's reader of where the live rows of an Iceberg PK table's buckets are, for the store's
 * lake row index (T48). Keys are encoded by {@link IcebergRowKeys}, as writers encode the keys they
 * look up.
 */
final class IcebergRowScanner implements LakeRowScanner {
    private final Table table;
    private final TableDescriptor descriptor;

    IcebergRowScanner(Table table, TableDescriptor descriptor) {
        this.table = table;
        this.descriptor = descriptor;
    }

    @Override
    public BucketFiles bucketFiles(
            long snapshotId, PartitionSpec partition, int bucket, long sinceSnapshotId) {
        requireSnapshot(snapshotId);
        List<String> files =
                rows(partition, bucket).files(snapshotId).stream()
                        .map(t -> t.file().location())
                        .toList();
        boolean descends =
                sinceSnapshotId >= 0
                        && (sinceSnapshotId == snapshotId
                                || SnapshotUtil.isAncestorOf(table, snapshotId, sinceSnapshotId));
        return new BucketFiles(files, descends);
    }

    @Override
    public void scan(
            long snapshotId,
            PartitionSpec partition,
            int bucket,
            Collection<String> files,
            RowSink sink) {
        requireSnapshot(snapshotId);
        if (files.isEmpty()) {
            return;
        }
        Set<String> wanted = new HashSet<>(files);
        IcebergBucketRows rows = rows(partition, bucket);
        IcebergRowKeys keys = new IcebergRowKeys(rows.keySchema().asStruct());
        for (FileScanTask task : rows(partition, bucket).files(snapshotId)) {
            String location = task.file().location();
            if (wanted.contains(location)) {
                rows.forEachLiveRow(
                        task,
                        (key, position) ->
                                sink.accept(
                                        keys.encode(key), new LakeRowLocation(location, position)));
            }
        }
    }

    private IcebergBucketRows rows(PartitionSpec partition, int bucket) {
        return IcebergBucketRows.of(table, descriptor, bucket, partition);
    }

    private void requireSnapshot(long snapshotId) {
        if (table.snapshot(snapshotId) == null) {
            table.refresh();
            if (table.snapshot(snapshotId) == null) {
                throw new RetriableException(
                        "Iceberg table '"
                                + table.name()
                                + "' has no snapshot "
                                + snapshotId
                                + " (expired meanwhile); the round retries from the current one");
            }
        }
    }

    @Override
    public void close() {}
}
