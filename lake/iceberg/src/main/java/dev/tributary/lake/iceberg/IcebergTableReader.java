package dev.tributary.lake.iceberg;

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
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * Reads a Tributary-created Iceberg table as of a snapshot through Iceberg's own generic reader
 * ({@link IcebergGenerics}): {@code useSnapshot} time travel, column selection, the filter
 * translated into Iceberg expressions ({@link IcebergPredicates}) so Iceberg prunes partitions and
 * files by their metrics, and equality and position deletes applied by Iceberg, so a primary-key
 * table comes back with one row per key. Every row is checked against the exact filter after
 * conversion.
 */
final class IcebergTableReader implements LakeReader {
    private final Catalog catalog;
    private final TablePath tablePath;
    private final IcebergLakeCommitter snapshots;

    IcebergTableReader(Catalog catalog, TablePath tablePath) {
        this.catalog = catalog;
        this.tablePath = tablePath;
        this.snapshots = new IcebergLakeCommitter(catalog, tablePath);
    }

    @Override
    public Optional<LakeSnapshot> latestTieringSnapshot(long tableId) {
        return snapshots.latestTieringSnapshot(tableId);
    }

    @Override
    public LakeRowCursor read(LakeReadRequest request) {
        Table table = IcebergLakeStorage.loadTable(catalog, tablePath);
        Snapshot snapshot = table.snapshot(request.snapshotId());
        if (snapshot == null) {
            throw new NotFoundException(
                    "snapshot "
                            + request.snapshotId()
                            + " of Iceberg table '"
                            + tablePath
                            + "' does not exist (expired?); read the latest tiering snapshot");
        }
        Schema schema =
                snapshot.schemaId() == null
                        ? table.schema()
                        : table.schemas().getOrDefault(snapshot.schemaId(), table.schema());
        String[] names = request.columnNames();
        int[] requested = request.columns();
        List<String> select = new ArrayList<>();
        IcebergReadValues.Getter[] getters = new IcebergReadValues.Getter[names.length];
        for (int i = 0; i < names.length; i++) {
            // a column added after this snapshot reads NULL
            if (schema.findField(names[i]) != null) {
                select.add(names[i]);
                DataType type = request.table().schema().typeAt(requested[i]);
                getters[i] = IcebergReadValues.getterFor(type, names[i]);
            }
        }
        select.addAll(LakeSystemColumns.NAMES);

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
        IcebergGenerics.ScanBuilder scan =
                IcebergGenerics.read(table).useSnapshot(snapshot.snapshotId()).select(select);
        IcebergPredicates.toIceberg(exact, schema, request.table().schema()).ifPresent(scan::where);
        Predicate<Row> check = exact.bind(c -> positionIn(c, names));
        try {
            CloseableIterable<Record> records = scan.build();
            return new Cursor(records, getters, check);
        } catch (RuntimeException e) {
            throw new StorageException(
                    "reading Iceberg table '"
                            + tablePath
                            + "' as of snapshot "
                            + request.snapshotId()
                            + " failed: "
                            + e.getMessage(),
                    e);
        }
    }

    private static int positionIn(String column, String[] names) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(column)) {
                return i;
            }
        }
        int sys = LakeSystemColumns.NAMES.indexOf(column);
        return sys < 0 ? -1 : names.length + sys;
    }

    @Override
    public void close() {}

    /** Converts Iceberg records, checks the filter and exposes the system columns. */
    private static final class Cursor implements LakeRowCursor {
        private final CloseableIterable<Record> records;
        private final Iterator<Record> it;
        private final IcebergReadValues.Getter[] getters;
        private final Predicate<Row> check;
        private int[] positions;
        private int bucketPos;
        private Row row;
        private int bucket;
        private long offset;
        private long timestamp;

        Cursor(
                CloseableIterable<Record> records,
                IcebergReadValues.Getter[] getters,
                Predicate<Row> check) {
            this.records = records;
            this.it = records.iterator();
            this.getters = getters;
            this.check = check;
        }

        /** Field positions in the projected struct, resolved on the first record. */
        private void resolve(Types.StructType struct) {
            positions = new int[getters.length];
            List<Types.NestedField> fields = struct.fields();
            List<String> fieldNames = fields.stream().map(Types.NestedField::name).toList();
            for (int i = 0; i < getters.length; i++) {
                positions[i] = getters[i] == null ? -1 : fieldNames.indexOf(getters[i].column());
            }
            bucketPos = fieldNames.indexOf(LakeSystemColumns.BUCKET);
        }

        @Override
        public boolean next() {
            try {
                while (it.hasNext()) {
                    Record r = it.next();
                    if (positions == null) {
                        resolve(r.struct());
                    }
                    int width = getters.length;
                    Object[] values = new Object[width + 3];
                    for (int i = 0; i < width; i++) {
                        if (positions[i] >= 0) {
                            Object v = r.get(positions[i]);
                            values[i] = v == null ? null : getters[i].convert(v);
                        }
                    }
                    bucket = (Integer) r.get(bucketPos);
                    offset = (Long) r.get(bucketPos + 1);
                    Instant ts = ((OffsetDateTime) r.get(bucketPos + 2)).toInstant();
                    timestamp = ts.toEpochMilli();
                    values[width] = bucket;
                    values[width + 1] = offset;
                    values[width + 2] = ts;
                    Row wide = Row.wrap(values);
                    if (check.test(wide)) {
                        row = Row.wrap(Arrays.copyOf(values, width));
                        return true;
                    }
                }
                return false;
            } catch (RuntimeException e) {
                throw new StorageException("reading Iceberg rows failed: " + e.getMessage(), e);
            }
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
                records.close();
            } catch (Exception e) {
                throw new StorageException("closing an Iceberg read failed: " + e.getMessage(), e);
            }
        }
    }
}
