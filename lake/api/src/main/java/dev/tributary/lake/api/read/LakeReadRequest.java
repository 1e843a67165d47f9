package dev.tributary.lake.api.read;

import dev.tributary.common.types.TableDescriptor;
import java.util.Arrays;
import java.util.Objects;

/**
 * What to read from a lake table: one tiering snapshot (time travel), the rows of one Tributary
 * bucket, some columns, optionally a filter and a lower bound on the log offset.
 *
 * @param snapshotId the lake snapshot to read as of (a {@link
 *     dev.tributary.lake.api.commit.LakeSnapshot#snapshotId()}); later commits are invisible
 * @param table the Tributary descriptor the rows are read for: its column types decide the Java
 *     classes of the values, and its bucket layout which lake files may hold the bucket
 * @param bucket the Tributary bucket whose rows are read (the {@code __bucket} system column)
 * @param columns positions of the Tributary columns to return, in this order; a column the lake
 *     snapshot does not have yet (added later) reads NULL
 * @param filter rows that do not satisfy it are not returned; it may read only columns in {@code
 *     columns} and the system columns. Null for none. A partitioned table's bucket is read per
 *     partition by an equality on every partition column (the lake table is partitioned by the same
 *     columns, T32): formats prune the other partitions' files with it
 * @param minOffset only rows whose {@code __offset} is at least this (0 for all): lets a reader
 *     that already has the store's records from some offset on skip what it has, exactly
 * @since 0.1
 */
public record LakeReadRequest(
        long snapshotId,
        TableDescriptor table,
        int bucket,
        int[] columns,
        LakePredicate filter,
        long minOffset) {

    public LakeReadRequest {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(columns, "columns");
        columns = columns.clone();
        int n = table.schema().fieldCount();
        for (int c : columns) {
            if (c < 0 || c >= n) {
                throw new IllegalArgumentException(
                        "column position " + c + " outside [0, " + n + ") of " + table.schema());
            }
        }
        if (bucket < 0 || bucket >= table.bucketCount()) {
            throw new IllegalArgumentException(
                    "bucket " + bucket + " outside [0, " + table.bucketCount() + ")");
        }
    }

    /** Every column, no filter, from offset 0. */
    public static LakeReadRequest all(long snapshotId, TableDescriptor table, int bucket) {
        int[] cols = new int[table.schema().fieldCount()];
        Arrays.setAll(cols, i -> i);
        return new LakeReadRequest(snapshotId, table, bucket, cols, null, 0);
    }

    @Override
    public int[] columns() {
        return columns.clone();
    }

    /** The names of the requested columns, in order. */
    public String[] columnNames() {
        String[] out = new String[columns.length];
        for (int i = 0; i < columns.length; i++) {
            out[i] = table.schema().columns().get(columns[i]).name();
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LakeReadRequest r
                && r.snapshotId == snapshotId
                && r.table.equals(table)
                && r.bucket == bucket
                && Arrays.equals(r.columns, columns)
                && Objects.equals(r.filter, filter)
                && r.minOffset == minOffset;
    }

    @Override
    public int hashCode() {
        return Objects.hash(snapshotId, table, bucket, Arrays.hashCode(columns), filter, minOffset);
    }

    @Override
    public String toString() {
        return "LakeReadRequest{snapshot="
                + snapshotId
                + ", bucket="
                + bucket
                + ", columns="
                + Arrays.toString(columnNames())
                + ", filter="
                + filter
                + ", minOffset="
                + minOffset
                + '}';
    }
}
