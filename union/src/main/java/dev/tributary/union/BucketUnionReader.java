package dev.tributary.union;

import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.scan.LogScanner;
import dev.tributary.client.scan.RecordIterator;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.record.PartitionRouter;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.Schema;
import dev.tributary.lake.api.catalog.LakeSystemColumns;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.read.LakePredicate;
import dev.tributary.lake.api.read.LakeReadRequest;
import dev.tributary.lake.api.read.LakeReader;
import dev.tributary.lake.api.read.LakeRowCursor;
import dev.tributary.union.BucketReadState.Phase;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The union read of one bucket (T40): the lake snapshot's rows, then the store's log from the
 * snapshot's tiered offset, each record exactly once. A bucket of a partitioned table (T32) reads
 * the lake partition of the same name and that partition's log, with the snapshot's offset of that
 * (partition, bucket) as its seam; a following read of a partition that is dropped ends (T33: the
 * partition went only after it was tiered to its end and refused writes meanwhile).
 *
 * <ul>
 *   <li>Log table: the lake's rows of the bucket (all below the seam), then the log's records
 *       {@code [seam, end)}, then, when following, the tail as it grows.
 *   <li>Primary-key table: the changelog {@code [seam, end)} is read first into a map of each
 *       changed key's last change (memory grows with the keys changed since the snapshot's round,
 *       not with the table); then the lake's rows of keys the map does not hold, then the map's
 *       current rows: the KV state at {@code end}, each key once, as inserts. When following, the
 *       changelog from {@code end} is passed on as it is ({@code +I}, {@code -U/+U}, {@code -D}).
 * </ul>
 *
 * <p>Retention: the store deletes log records only below the tiered offset (T33's gate), but a
 * round may commit and retention run while this read still needs records below the new tiered
 * offset. The store then answers NotFound; the reader takes the lake's new latest snapshot and
 * continues exactly where it was: a log table reads the new snapshot's rows from the offset it had
 * reached (by {@code __offset}), a PK table that was still loading its tail starts the bucket over
 * from the new snapshot (nothing was emitted yet). A PK table that follows the changelog and falls
 * behind retention fails: the lost changes cannot be rebuilt from the lake's state.
 *
 * <p>Filters: the lake applies the filter (and prunes with it); store records are checked here. For
 * PK tables a key the tail changed is decided by the tail whatever the lake row looked like, so the
 * filter never resurrects or hides a stale version.
 *
 * <p>Driven by one thread. {@link #next()} never blocks waiting for new records: while following it
 * returns false when caught up and the caller decides when to ask again.
 */
public final class BucketUnionReader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BucketUnionReader.class);

    private final TableInfo table;
    private final LogScanner scanner;
    private final LakeReader lake;
    private final int[] projection;
    private final LakePredicate filter;
    private final Predicate<Row> storeFilter;
    private final int[] keyPositions;
    private final boolean primaryKey;
    // a partitioned table's lake partition: equality on every partition column
    private final LakePredicate partitionFilter;

    // lake read layout: the sorted union of projected, key and filter columns
    private final int[] lakeColumns;
    private final int[] outFromLake;
    private final int[] keyFromLake;

    private BucketReadState state;
    private LakeRowCursor lakeCursor;
    private RecordIterator storeIterator;
    private Map<Row, Change> tail;
    private Iterator<Change> tailIterator;
    private ChangeType changeType;
    private Row row;
    private long lakeRows;
    private long storeRecords;
    private int retentionMoves;

    /** The last change of a key in the tail. */
    private record Change(ChangeType type, Row row) {}

    /**
     * @param table the table as planned
     * @param scanner the store's log of the table
     * @param lake the lake table's reader; null when {@code state} has no snapshot
     * @param projection positions of the columns to return
     * @param filter rows that do not satisfy it are dropped (table columns only); null for none
     * @param state where to start or resume
     */
    public BucketUnionReader(
            TableInfo table,
            LogScanner scanner,
            LakeReader lake,
            int[] projection,
            LakePredicate filter,
            BucketReadState state) {
        this.table = table;
        this.scanner = scanner;
        this.lake = lake;
        this.projection = projection.clone();
        this.filter = filter;
        Schema schema = table.schema();
        this.storeFilter = filter == null ? r -> true : filter.bind(c -> indexOrMinus(schema, c));
        this.primaryKey = table.hasPrimaryKey();
        this.keyPositions = schema.primaryKeyIndexes();
        TreeSet<Integer> needed = new TreeSet<>();
        for (int p : projection) {
            needed.add(p);
        }
        for (int p : keyPositions) {
            needed.add(p);
        }
        if (filter != null) {
            for (String c : filter.columns()) {
                needed.add(schema.indexOf(c));
            }
        }
        this.partitionFilter = partitionFilter(table, state);
        if (partitionFilter != null) {
            for (String c : partitionFilter.columns()) {
                needed.add(schema.indexOf(c));
            }
        }
        this.lakeColumns = needed.stream().mapToInt(Integer::intValue).toArray();
        List<Integer> order = new ArrayList<>(needed);
        this.outFromLake = new int[projection.length];
        for (int i = 0; i < projection.length; i++) {
            outFromLake[i] = order.indexOf(projection[i]);
        }
        this.keyFromLake = new int[keyPositions.length];
        for (int i = 0; i < keyPositions.length; i++) {
            keyFromLake[i] = order.indexOf(keyPositions[i]);
        }
        this.state = state;
        if (state.snapshotId() >= 0 && lake == null) {
            throw new IllegalArgumentException(
                    "bucket "
                            + state.describe()
                            + " reads lake snapshot "
                            + state.snapshotId()
                            + " but no lake reader was given");
        }
    }

    /**
     * Selects the bucket's lake partition: the lake table is partitioned by the same columns (T32),
     * and both formats prune partitions by an equality filter on them.
     */
    private static LakePredicate partitionFilter(TableInfo table, BucketReadState state) {
        if (!state.isPartitioned()) {
            if (table.descriptor().isPartitioned()) {
                throw new IllegalArgumentException(
                        "table "
                                + table.path()
                                + " is partitioned: a bucket's state names its"
                                + " partition");
            }
            return null;
        }
        if (!table.descriptor().isPartitioned()) {
            throw new IllegalArgumentException(
                    "table "
                            + table.path()
                            + " is not partitioned, the state names partition "
                            + state.partition());
        }
        PartitionRouter router = PartitionRouter.of(table.descriptor());
        Object[] values = router.values(PartitionSpec.parse(state.partition()));
        List<LakePredicate> conjuncts = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            conjuncts.add(LakePredicate.equal(router.keys().get(i), values[i]));
        }
        return LakePredicate.and(conjuncts);
    }

    private static int indexOrMinus(Schema schema, String column) {
        return schema.columnNames().indexOf(column);
    }

    /**
     * Advances to the next record.
     *
     * @return false when no record is available now: the read ended ({@link #finished()}), or it
     *     follows the log and has caught up (ask again later)
     */
    public boolean next() {
        while (true) {
            switch (state.phase()) {
                case LAKE -> {
                    if (nextLake()) {
                        return true;
                    }
                }
                case TAIL -> {
                    if (nextTail()) {
                        return true;
                    }
                }
                case STORE -> {
                    int r = nextStore();
                    if (r > 0) {
                        return true;
                    }
                    if (r < 0) {
                        return false;
                    }
                }
                case DONE -> {
                    return false;
                }
            }
        }
    }

    /** True when a batch read has emitted everything. */
    public boolean finished() {
        return state.phase() == Phase.DONE;
    }

    /** The change type of the current record: INSERT for snapshot rows, the log's type after. */
    public ChangeType changeType() {
        return changeType;
    }

    /** The current record's projected row. */
    public Row row() {
        return row;
    }

    /** Where the read stands after the current record: resuming from it continues after it. */
    public BucketReadState state() {
        return state;
    }

    /** Lake rows read so far (emitted or shadowed by the tail). */
    public long lakeRows() {
        return lakeRows;
    }

    /** How often store records this read needed were deleted and it moved to a newer snapshot. */
    public int retentionMoves() {
        return retentionMoves;
    }

    /** Store log records read so far (tail included). */
    public long storeRecords() {
        return storeRecords;
    }

    // ---------------------------------------------------------------- LAKE

    private boolean nextLake() {
        if (primaryKey && tail == null) {
            loadTail();
            return false; // re-dispatch: loading may have moved to a newer snapshot
        }
        if (state.snapshotId() < 0) {
            endLake();
            return false;
        }
        if (lakeCursor == null) {
            lakeCursor = lake.read(lakeRequest());
            for (long i = 0; i < state.skip(); i++) {
                if (!advanceLakeVisible()) {
                    break;
                }
            }
        }
        if (advanceLakeVisible()) {
            changeType = ChangeType.INSERT;
            row = project(lakeCursor.row(), outFromLake);
            state = state.withSkip(state.skip() + 1);
            return true;
        }
        endLake();
        return false;
    }

    /** The next lake row not shadowed by the tail. */
    private boolean advanceLakeVisible() {
        while (lakeCursor.next()) {
            lakeRows++;
            if (tail != null && tail.containsKey(project(lakeCursor.row(), keyFromLake))) {
                continue;
            }
            return true;
        }
        return false;
    }

    private LakeReadRequest lakeRequest() {
        List<LakePredicate> conjuncts = new ArrayList<>();
        if (partitionFilter != null) {
            conjuncts.add(partitionFilter);
        }
        if (filter != null) {
            conjuncts.add(filter);
        }
        if (state.lakeMinOffset() > 0 && !state.follow()) {
            // moved to a newer snapshot during a batch read: stay within the planned range
            conjuncts.add(
                    LakePredicate.compare(
                            LakeSystemColumns.OFFSET, LakePredicate.Op.LT, state.storeTo()));
        }
        return new LakeReadRequest(
                state.snapshotId(),
                table.descriptor(),
                state.bucket(),
                lakeColumns,
                LakePredicate.and(conjuncts),
                state.lakeMinOffset());
    }

    private void endLake() {
        closeLake();
        if (primaryKey) {
            state = state.withPhase(Phase.TAIL, 0, state.storeTo());
        } else {
            state = state.withPhase(Phase.STORE, 0, state.storeFrom());
        }
    }

    // ---------------------------------------------------------------- TAIL (PK)

    /** Reads the changelog {@code [storeFrom, storeTo)} into the last change per key. */
    private void loadTail() {
        while (true) {
            Map<Row, Change> changes = new LinkedHashMap<>();
            long from = state.storeFrom();
            long pos = from;
            try (RecordIterator it = scan(from, state.storeTo())) {
                while (it.hasNext()) {
                    LogRecord r = it.next();
                    storeRecords++;
                    pos = r.offset() + 1;
                    changes.put(r.row().project(keyPositions), new Change(r.changeType(), r.row()));
                }
                tail = changes;
                return;
            } catch (NotFoundException e) {
                if (state.phase() != Phase.LAKE || state.skip() > 0) {
                    // a resumed read already emitted rows of the old snapshot: starting over
                    // would emit them twice
                    throwIfPartitionDropped(e);
                    throw new NotFoundException(
                            "the changelog of bucket "
                                    + state.describe()
                                    + " of "
                                    + table.path()
                                    + " was deleted by retention while this read was suspended;"
                                    + " restart the read",
                            e);
                }
                throwIfPartitionDropped(e);
                BucketReadState moved = retentionMoved(pos, e);
                // nothing was emitted yet: the whole bucket starts over from the newer snapshot
                state =
                        BucketReadState.start(
                                state.partitionId(),
                                state.partition(),
                                state.bucket(),
                                moved.snapshotId(),
                                moved.storeFrom(),
                                Math.max(state.storeTo(), moved.storeFrom()),
                                state.follow());
            }
        }
    }

    private boolean nextTail() {
        if (tailIterator == null) {
            if (tail == null) {
                loadTail();
            }
            tailIterator = tail.values().iterator();
            long skipped = 0;
            while (skipped < state.skip() && advanceTailVisible()) {
                skipped++;
            }
        }
        if (advanceTailVisible()) {
            state = state.withSkip(state.skip() + 1);
            return true;
        }
        tail = null;
        tailIterator = null;
        state =
                state.follow()
                        ? state.withPhase(Phase.STORE, 0, state.storeTo())
                        : state.withPhase(Phase.DONE, 0, state.storeTo());
        return false;
    }

    private boolean advanceTailVisible() {
        while (tailIterator.hasNext()) {
            Change c = tailIterator.next();
            if (c.type().isAddition() && storeFilter.test(c.row())) {
                changeType = ChangeType.INSERT;
                row = project(c.row(), projection);
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- STORE

    /** 1: a record; 0: phase changed, dispatch again; -1: nothing available now. */
    private int nextStore() {
        long pos = state.position();
        boolean bounded = !state.follow();
        if (bounded && pos >= state.storeTo()) {
            closeStore();
            state = state.withPhase(Phase.DONE, 0, pos);
            return 0;
        }
        try {
            if (storeIterator == null) {
                storeIterator = scan(pos, bounded ? state.storeTo() : Long.MAX_VALUE);
            }
            while (storeIterator.hasNext()) {
                LogRecord r = storeIterator.next();
                storeRecords++;
                state = state.withPhase(Phase.STORE, 0, r.offset() + 1);
                if (storeFilter.test(r.row())) {
                    changeType =
                            r.changeType() == ChangeType.APPEND_ONLY
                                    ? ChangeType.INSERT
                                    : r.changeType();
                    row = project(r.row(), projection);
                    return 1;
                }
            }
            closeStore();
            return bounded ? 0 : -1;
        } catch (NotFoundException e) {
            closeStore();
            if (state.isPartitioned() && !partitionExists()) {
                if (!state.follow()) {
                    throw partitionDropped(e);
                }
                // T33: a partition goes only once it is tiered to its end and refused writes
                // meanwhile, so a follower that caught up has read it all: its split ends
                LOG.info(
                        "partition {} of {} was dropped: its bucket {} ends at offset {}",
                        state.partition(),
                        table.path(),
                        state.bucket(),
                        state.position());
                state = state.withPhase(Phase.DONE, 0, state.position());
                return 0;
            }
            if (primaryKey) {
                throw new NotFoundException(
                        "the changelog of bucket "
                                + state.describe()
                                + " of "
                                + table.path()
                                + " from offset "
                                + state.position()
                                + " was deleted by retention before this reader read it; the"
                                + " lake holds the table's state, not the lost changes. Restart"
                                + " the read (or keep up with the log)",
                        e);
            }
            BucketReadState moved = retentionMoved(state.position(), e);
            state =
                    new BucketReadState(
                            state.partitionId(),
                            state.partition(),
                            state.bucket(),
                            moved.snapshotId(),
                            state.position(),
                            moved.storeFrom(),
                            state.storeTo(),
                            state.follow(),
                            Phase.LAKE,
                            0,
                            moved.storeFrom());
            return 0;
        }
    }

    /**
     * After the store refused offset {@code position}: the newest tiering snapshot, which must
     * cover it, as a start state.
     */
    private BucketReadState retentionMoved(long position, NotFoundException cause) {
        long start = startOffset();
        if (start <= position) {
            throw cause; // not retention: the table or bucket is gone
        }
        Optional<LakeSnapshot> latest =
                lake == null ? Optional.empty() : lake.latestTieringSnapshot(table.tableId());
        long tiered = latest.map(this::tieredOffset).orElse(0L);
        if (latest.isEmpty() || tiered < start) {
            throw new NotFoundException(
                    "records ["
                            + position
                            + ", "
                            + start
                            + ") of bucket "
                            + state.describe()
                            + " of "
                            + table.path()
                            + " were deleted by retention and the lake does not hold them"
                            + (lake == null ? " (no lake configured for this reader)" : ""),
                    cause);
        }
        retentionMoves++;
        LOG.info(
                "bucket {} of {}: store records from {} were deleted by retention; continuing from"
                        + " lake snapshot {} (tiered offset {})",
                state.describe(),
                table.path(),
                position,
                latest.get().snapshotId(),
                tiered);
        return BucketReadState.start(
                state.partitionId(),
                state.partition(),
                state.bucket(),
                latest.get().snapshotId(),
                tiered,
                state.storeTo(),
                state.follow());
    }

    // ---------------------------------------------------------------- partitions

    private RecordIterator scan(long from, long to) {
        return state.isPartitioned()
                ? scanner.scan(state.partitionId(), state.bucket(), from, to)
                : scanner.scan(state.bucket(), from, to);
    }

    /** The bucket's first offset still in the store. */
    private long startOffset() {
        Map<Integer, Long> starts =
                state.isPartitioned()
                        ? scanner.startOffsets(state.partitionId())
                        : scanner.startOffsets();
        return starts.getOrDefault(state.bucket(), 0L);
    }

    /** A snapshot's tiered offset of this bucket (0: never tiered). */
    private long tieredOffset(LakeSnapshot s) {
        Map<Integer, Long> offsets =
                state.isPartitioned()
                        ? s.properties().partitionOffsets(state.partitionId())
                        : s.properties().bucketOffsets();
        return offsets.getOrDefault(state.bucket(), 0L);
    }

    private boolean partitionExists() {
        try {
            scanner.startOffsets(state.partitionId());
            return true;
        } catch (NotFoundException e) {
            return false;
        }
    }

    private void throwIfPartitionDropped(NotFoundException cause) {
        if (state.isPartitioned() && !partitionExists()) {
            throw partitionDropped(cause);
        }
    }

    private NotFoundException partitionDropped(NotFoundException cause) {
        return new NotFoundException(
                "partition "
                        + state.partition()
                        + " of "
                        + table.path()
                        + " was dropped while this read of it was under way (its records from"
                        + " offset "
                        + state.position()
                        + " of bucket "
                        + state.bucket()
                        + " are gone from the store); read the table again",
                cause);
    }

    // ---------------------------------------------------------------- misc

    private static Row project(Row r, int[] positions) {
        Object[] out = new Object[positions.length];
        for (int i = 0; i < positions.length; i++) {
            int p = positions[i];
            out[i] = p < r.arity() ? r.getField(p) : null;
        }
        return Row.wrap(out);
    }

    private void closeLake() {
        if (lakeCursor != null) {
            lakeCursor.close();
            lakeCursor = null;
        }
    }

    private void closeStore() {
        if (storeIterator != null) {
            storeIterator.close();
            storeIterator = null;
        }
    }

    @Override
    public void close() {
        closeLake();
        closeStore();
    }
}
