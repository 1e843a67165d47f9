package dev.tributary.lake.paimon;

import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataType;
import dev.tributary.lake.api.catalog.LakeSystemColumns;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.read.LakePredicate;
import dev.tributary.lake.api.read.LakeReadRequest;
import dev.tributary.lake.api.read.LakeReader;
import dev.tributary.lake.api.read.LakeRowCursor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.CloseableIterator;

/**
 * Reads a Tributary-created Paimon table as of a snapshot through Paimon's own {@link ReadBuilder}:
 * time travel with {@code scan.snapshot-id}, projection, the filter translated into Paimon
 * predicates for file and row-group skipping ({@link PaimonPredicates}), and for a table whose
 * store buckets are Paimon buckets (T36) a bucket filter, so one Tributary bucket opens one Paimon
 * bucket's files. Primary-key tables come back merged by Paimon's deduplicate engine. Every row is
 * checked against the filter after conversion, so the answer is exact.
 */
final class PaimonTableReader implements LakeReader {
    private final Catalog catalog;
    private final TablePath tablePath;
    private final PaimonLakeCommitter snapshots;

    PaimonTableReader(Catalog catalog, TablePath tablePath) {
        this.catalog = catalog;
        this.tablePath = tablePath;
        this.snapshots = new PaimonLakeCommitter(catalog, tablePath);
    }

    @Override
    public Optional<LakeSnapshot> latestTieringSnapshot(long tableId) {
        return snapshots.latestReadableTieringSnapshot(tableId);
    }

    @Override
    public LakeRowCursor read(LakeReadRequest request) {
        FileStoreTable base = PaimonLakeStorage.loadTable(catalog, tablePath);
        if (base.snapshotManager().snapshotExists(request.snapshotId()) == false) {
            throw new NotFoundException(
                    "snapshot "
                            + request.snapshotId()
                            + " of Paimon table '"
                            + tablePath
                            + "' does not exist (expired?); read the latest tiering snapshot");
        }
        FileStoreTable table =
                base.copy(
                        Map.of(
                                CoreOptions.SCAN_SNAPSHOT_ID.key(),
                                Long.toString(request.snapshotId())));
        RowType rowType = table.rowType();
        String[] names = request.columnNames();
        int[] requested = request.columns();
        // read positions: the requested columns the lake has, then the three system columns
        List<Integer> projection = new ArrayList<>();
        int[] slotOf = new int[names.length];
        PaimonReadValues.Getter[] getters = new PaimonReadValues.Getter[names.length];
        for (int i = 0; i < names.length; i++) {
            int idx = rowType.getFieldIndex(names[i]);
            if (idx < 0) {
                slotOf[i] = -1;
                continue;
            }
            slotOf[i] = projection.size();
            projection.add(idx);
            DataType type = request.table().schema().typeAt(requested[i]);
            getters[i] = PaimonReadValues.getterFor(type, slotOf[i]);
        }
        int bucketSlot = projection.size();
        projection.add(rowType.getFieldIndex(LakeSystemColumns.BUCKET));
        projection.add(rowType.getFieldIndex(LakeSystemColumns.OFFSET));
        projection.add(rowType.getFieldIndex(LakeSystemColumns.TIMESTAMP));

        List<LakePredicate> conjuncts = new ArrayList<>();
        conjuncts.add(LakePredicate.equal(LakeSystemColumns.BUCKET, request.bucket()));
        if (request.minOffset() > 0) {
            conjuncts.add(
                    LakePredicate.compare(
                            LakeSystemColumns.OFFSET, LakePredicate.Op.GT_EQ, request.minOffset()));
        }
        if (request.filter() != null) {
            conjuncts.add(request.filter());
        }
        LakePredicate exact = LakePredicate.and(conjuncts);
        ReadBuilder rb =
                table.newReadBuilder()
                        .withProjection(projection.stream().mapToInt(Integer::intValue).toArray());
        PaimonPredicates.toPaimon(exact, rowType, request.table().schema())
                .ifPresent(rb::withFilter);
        if (aligned(request, table)) {
            int bucket = request.bucket();
            rb.withBucketFilter(b -> b == bucket);
        }
        Predicate<Row> check = exact.bind(c -> positionIn(c, names, slotOf));
        try {
            RecordReader<InternalRow> reader = rb.newRead().createReader(rb.newScan().plan());
            return new Cursor(
                    reader.toCloseableIterator(), getters, names.length, bucketSlot, check);
        } catch (Exception e) {
            throw new StorageException(
                    "reading Paimon table '"
                            + tablePath
                            + "' as of snapshot "
                            + request.snapshotId()
                            + " failed: "
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * Positions in the checked rows: the requested columns, then __bucket, __offset and __timestamp
     * (the cursor appends them for the check).
     */
    private static int positionIn(String column, String[] names, int[] slotOf) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(column)) {
                return i;
            }
        }
        int sys = LakeSystemColumns.NAMES.indexOf(column);
        return sys < 0 ? -1 : names.length + sys;
    }

    /** True when store bucket b is Paimon bucket b, so other Paimon buckets can be skipped. */
    private static boolean aligned(LakeReadRequest request, FileStoreTable table) {
        return PaimonSchemas.bucketsAligned(request.table(), table);
    }

    @Override
    public void close() {}

    /** Converts Paimon rows, checks the filter and exposes the system columns. */
    private static final class Cursor implements LakeRowCursor {
        private final CloseableIterator<InternalRow> rows;
        private final PaimonReadValues.Getter[] getters;
        private final int width;
        private final int bucketSlot;
        private final Predicate<Row> check;
        private Row row;
        private int bucket;
        private long offset;
        private long timestamp;

        Cursor(
                CloseableIterator<InternalRow> rows,
                PaimonReadValues.Getter[] getters,
                int width,
                int bucketSlot,
                Predicate<Row> check) {
            this.rows = rows;
            this.getters = getters;
            this.width = width;
            this.bucketSlot = bucketSlot;
            this.check = check;
        }

        @Override
        public boolean next() {
            while (rows.hasNext()) {
                InternalRow r = rows.next();
                // the filter sees the system columns after the requested ones
                Object[] values = new Object[width + 3];
                for (int i = 0; i < width; i++) {
                    values[i] = getters[i] == null ? null : getters[i].get(r);
                }
                bucket = r.getInt(bucketSlot);
                offset = r.getLong(bucketSlot + 1);
                timestamp = r.getTimestamp(bucketSlot + 2, 3).getMillisecond();
                values[width] = bucket;
                values[width + 1] = offset;
                values[width + 2] = java.time.Instant.ofEpochMilli(timestamp);
                Row wide = Row.wrap(values);
                if (check.test(wide)) {
                    row =
                            width == values.length
                                    ? wide
                                    : Row.wrap(java.util.Arrays.copyOf(values, width));
                    return true;
                }
            }
            return false;
        }

        @Override
        public Row row() {
            return row;
        }

        @Override
        public int bucket() {
            return bucket;
        }

        @Override
        public long offset() {
            return offset;
        }

        @Override
        public long timestampMillis() {
            return timestamp;
        }

        @Override
        public void close() {
            try {
                rows.close();
            } catch (Exception e) {
                throw new StorageException("closing a Paimon read failed: " + e.getMessage(), e);
            }
        }
    }
}
