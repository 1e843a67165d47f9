package dev.tributary.lake.api.maintenance;

import dev.tributary.common.id.LakeBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import java.util.Objects;

/**
 * One lake bucket of one partition to compact, as the coordinator granted it ({@link LakeBucket});
 * the compactor leaves it alone when it holds at most {@code maxFiles} live files at the base
 * snapshot. No written file mixes rows of two partitions. The ids are copied into the {@link
 * LakeCompactionResult} and into the names of the files the compactor writes ({@link
 * dev.tributary.lake.api.write.AttemptFileNames#maintenanceTag}), so a grant that never commits
 * leaves files the next orphan cleanup recognises (T23).
 *
 * @param tablePath the Tributary table (= lake database.table)
 * @param tableId the Tributary table id
 * @param table the Tributary descriptor
 * @param maintenanceId the grant's id; grows per coordinator, across restarts
 * @param unit the lake partition (named as in {@link LakeTableStats#dataFilesPerPartition()}) and
 *     bucket
 * @param maxFiles the table's {@code table.datalake.compaction.max-files}
 * @param baseSnapshotId the snapshot the plan was made from, -1 for the latest: a format that
 *     rewrites a fixed view of the bucket (Iceberg) reads this one, so every bucket of a grant
 *     commits against the same base
 */
public record CompactionTask(
        TablePath tablePath,
        long tableId,
        TableDescriptor table,
        long maintenanceId,
        LakeBucket unit,
        int maxFiles,
        long baseSnapshotId) {
    public CompactionTask {
        Objects.requireNonNull(tablePath, "tablePath");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(unit, "unit");
        if (maxFiles < 1) {
            throw new IllegalArgumentException("maxFiles must be >= 1: " + maxFiles);
        }
    }

    /** The lake bucket number; -1 is Iceberg's partition of NULL keys. */
    public int bucket() {
        return unit.bucket();
    }

    /** The lake partition's name, {@link LakeBucket#UNPARTITIONED} for an unpartitioned table. */
    public String partition() {
        return unit.partition();
    }
}
