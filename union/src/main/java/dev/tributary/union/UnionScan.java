package dev.tributary.union;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.PartitionInfo;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.scan.LogScanner;
import dev.tributary.common.config.TableConfig;
import dev.tributary.common.config.TableOptions;
import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.Schema;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.read.LakePredicate;
import dev.tributary.lake.api.read.LakeReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A union read of one table (T40): the lake for what tiering has committed, the store's log for
 * everything after, exactly once, even while rounds commit during the read.
 *
 * <pre>{@code
 * try (Connection conn = Connection.open("127.0.0.1:9123");
 *         LakeStorage lake = LakeAccess.open(conn.admin(), Map.of()).orElse(null);
 *         UnionScan scan = UnionScan.builder(conn, TablePath.parse("shop.orders")).lake(lake).build()) {
 *     try (UnionScan.Rows rows = scan.read()) {
 *         while (rows.next()) { ... rows.row() ... }
 *     }
 * }
 * }</pre>
 *
 * <p>Planning ({@link #plan()}) takes the lake's latest tiering snapshot S FIRST, then the store's
 * end offsets E: S's offsets O never exceed E, and every record below O is in S while every record
 * from O on is in the store (retention deletes only tiered records), so {@code lake(S) + log[O, E)}
 * holds each record exactly once whatever commits after S was taken. The lake is read AS OF S (time
 * travel), never "latest". A table that is not lake-enabled, or was never tiered, is read from the
 * store alone.
 *
 * <p>A partitioned table (T30, T32) is read per (partition, bucket) of every partition that exists
 * when the read is planned: S's offset of that (partition, bucket) is its seam, the lake's rows are
 * those of the lake partition of the same name, and the store's log is that partition's. Data of
 * partitions dropped from the store is not read, even where the lake keeps it (T33). A filter on
 * the partition columns leaves out the partitions it rules out.
 *
 * <p>Buckets are independent: engines read them in parallel with {@link #open(BucketReadState)};
 * {@link #read()} reads them one after another. Thread safe; each bucket reader is used by one
 * thread.
 */
public final class UnionScan implements AutoCloseable {
    private final Connection connection;
    private final TableInfo table;
    private final LakeStorage lake;
    private final LakeReader lakeReader;
    private final int[] projection;
    private final LakePredicate filter;
    private final UnionReadMode mode;
    private final LogScanner scanner;
    private final PartitionPruner pruner;

    private UnionScan(Builder b) {
        this.connection = b.connection;
        this.table = b.table != null ? b.table : connection.admin().describeTable(b.path);
        Schema schema = table.schema();
        if (b.columns == null) {
            this.projection = new int[schema.fieldCount()];
            for (int i = 0; i < projection.length; i++) {
                projection[i] = i;
            }
        } else {
            this.projection = schema.indexesOf(b.columns);
        }
        if (b.filter != null) {
            for (String c : b.filter.columns()) {
                if (!schema.columnNames().contains(c)) {
                    throw new InvalidInputException(
                            "the filter reads '"
                                    + c
                                    + "', which is not a column of "
                                    + table.path()
                                    + " "
                                    + schema.columnNames());
                }
            }
        }
        this.filter = b.filter;
        this.pruner = PartitionPruner.of(table.descriptor(), b.filter);
        this.mode = b.mode;
        this.scanner = connection.logScanner(table.path());
        boolean lakeEnabled =
                TableConfig.of(table.descriptor().properties()).get(TableOptions.DATALAKE_ENABLED);
        this.lake = b.lake;
        this.lakeReader =
                lakeEnabled && lake != null && lake.catalog().tableExists(table.path())
                        ? lake.createReader(table.path())
                        : null;
        if (lakeEnabled && lakeReader == null) {
            // without the lake, tiered records below the start offsets would be silently missing
            java.util.Collection<Long> starts =
                    table.descriptor().isPartitioned()
                            ? scanner.partitionStartOffsets().values()
                            : scanner.startOffsets().values();
            if (starts.stream().anyMatch(o -> o > 0)) {
                throw new InvalidConfigException(
                        "table "
                                + table.path()
                                + " is tiered and the store no longer holds its oldest records,"
                                + " but this reader cannot open its lake table"
                                + (lake == null
                                        ? " (no lake: the server has none, or the format's plugin is not on the class path)"
                                        : " (it does not exist in " + lake.identifier() + ")")
                                + "; give the lake settings (datalake.*) or add the plugin");
            }
        }
    }

    public static Builder builder(Connection connection, TablePath path) {
        return new Builder(connection, path);
    }

    public TableInfo table() {
        return table;
    }

    /** The projected columns' positions in the table's schema. */
    public int[] projection() {
        return projection.clone();
    }

    public UnionReadMode mode() {
        return mode;
    }

    /**
     * Takes the lake snapshot, then the store's end offsets: one start state per bucket, for a
     * partitioned table per bucket of every partition that exists when planned (and that the filter
     * does not rule out). Partitions created later are not part of the plan.
     *
     * @throws dev.tributary.common.exception.NotFoundException when the table was dropped
     */
    public UnionPlan plan() {
        Optional<LakeSnapshot> snapshot =
                lakeReader == null
                        ? Optional.empty()
                        : lakeReader.latestTieringSnapshot(table.tableId());
        if (table.descriptor().isPartitioned()) {
            return new UnionPlan(table, snapshot, planPartitions(snapshot, listPartitions()));
        }
        // after the snapshot: its offsets never exceed these
        Map<Integer, Long> ends = scanner.endOffsets();
        Map<Integer, Long> starts = lakeReader == null ? scanner.startOffsets() : Map.of();
        boolean follow = mode == UnionReadMode.STREAMING;
        List<BucketReadState> buckets = new ArrayList<>();
        for (int b = 0; b < table.bucketCount(); b++) {
            long end = ends.getOrDefault(b, 0L);
            long seam;
            long snapshotId = -1;
            if (snapshot.isPresent()) {
                Long tiered = snapshot.get().properties().bucketOffsets().get(b);
                seam = tiered == null ? 0 : tiered;
                snapshotId = tiered == null || tiered == 0 ? -1 : snapshot.get().snapshotId();
            } else {
                // no lake: what the store still has is the table
                seam = lakeReader == null ? starts.getOrDefault(b, 0L) : 0;
            }
            buckets.add(BucketReadState.start(b, snapshotId, seam, Math.max(end, seam), follow));
        }
        return new UnionPlan(table, snapshot, buckets);
    }

    /**
     * The partitions of the table that exist now and that the filter does not rule out, by id
     * (ascending), with their names. Empty for an unpartitioned table.
     */
    public SortedMap<Long, String> listPartitions() {
        SortedMap<Long, String> out = new TreeMap<>();
        if (!table.descriptor().isPartitioned()) {
            return out;
        }
        for (PartitionInfo p : connection.admin().listPartitions(table.path())) {
            if (pruner.mayMatch(p.spec())) {
                out.put(p.partitionId(), p.name());
            }
        }
        return out;
    }

    /**
     * Start states for the buckets of some partitions of a partitioned table: the lake as of {@code
     * snapshot} (taken BEFORE this call, so its offsets never exceed the end offsets read here) and
     * the store's log from each (partition, bucket)'s tiered offset. A streaming reader calls it
     * for partitions it discovers after the first plan, with the lake's newest snapshot.
     *
     * @param partitions partition ids and names, as {@link #listPartitions()} gives them; a
     *     partition dropped meanwhile is left out
     */
    public List<BucketReadState> planPartitions(
            Optional<LakeSnapshot> snapshot, SortedMap<Long, String> partitions) {
        List<BucketReadState> buckets = new ArrayList<>();
        if (partitions.isEmpty()) {
            return buckets;
        }
        // after the snapshot: its offsets never exceed these
        Map<PartitionBucket, Long> ends = scanner.partitionEndOffsets();
        Map<PartitionBucket, Long> starts =
                lakeReader == null ? scanner.partitionStartOffsets() : Map.of();
        boolean follow = mode == UnionReadMode.STREAMING;
        for (Map.Entry<Long, String> p : partitions.entrySet()) {
            long pid = p.getKey();
            Map<Integer, Long> tieredOffsets =
                    snapshot.map(s -> (Map<Integer, Long>) s.properties().partitionOffsets(pid))
                            .orElse(Map.of());
            for (int b = 0; b < table.bucketCount(); b++) {
                Long end = ends.get(new PartitionBucket(pid, b));
                if (end == null) {
                    break; // dropped after it was listed: no longer part of the table
                }
                long seam;
                long snapshotId = -1;
                if (snapshot.isPresent()) {
                    Long tiered = tieredOffsets.get(b);
                    seam = tiered == null ? 0 : tiered;
                    snapshotId = tiered == null || tiered == 0 ? -1 : snapshot.get().snapshotId();
                } else {
                    seam =
                            lakeReader == null
                                    ? starts.getOrDefault(new PartitionBucket(pid, b), 0L)
                                    : 0;
                }
                buckets.add(
                        BucketReadState.start(
                                pid,
                                p.getValue(),
                                b,
                                snapshotId,
                                seam,
                                Math.max(end, seam),
                                follow));
            }
        }
        return buckets;
    }

    /** The lake's latest tiering snapshot of the table; empty without a lake or before tiering. */
    public Optional<LakeSnapshot> latestTieringSnapshot() {
        return lakeReader == null
                ? Optional.empty()
                : lakeReader.latestTieringSnapshot(table.tableId());
    }

    /** A reader of one bucket, from a plan's start state or a checkpointed one. */
    public BucketUnionReader open(BucketReadState state) {
        return new BucketUnionReader(table, scanner, lakeReader, projection, filter, state);
    }

    /** Plans and reads every bucket in turn (BATCH mode only). */
    public Rows read() {
        if (mode != UnionReadMode.BATCH) {
            throw new InvalidInputException(
                    "read() reads in BATCH mode; follow buckets with open()");
        }
        return new Rows(plan());
    }

    /** The number of rows a batch read returns (reads them). */
    public long count() {
        long n = 0;
        try (Rows rows = read()) {
            while (rows.next()) {
                n++;
            }
        }
        return n;
    }

    @Override
    public void close() {
        if (lakeReader != null) {
            lakeReader.close();
        }
    }

    /** The rows of a batch read, bucket after bucket. Not thread safe. */
    public final class Rows implements AutoCloseable {
        private final UnionPlan plan;
        private int next;
        private BucketUnionReader current;
        private long lakeRows;
        private long storeRecords;
        private int retentionMoves;

        private Rows(UnionPlan plan) {
            this.plan = plan;
        }

        public UnionPlan plan() {
            return plan;
        }

        public boolean next() {
            while (true) {
                if (current != null && current.next()) {
                    return true;
                }
                if (current != null) {
                    lakeRows += current.lakeRows();
                    storeRecords += current.storeRecords();
                    retentionMoves += current.retentionMoves();
                    current.close();
                    current = null;
                }
                if (next >= plan.buckets().size()) {
                    return false;
                }
                current = open(plan.buckets().get(next++));
            }
        }

        public Row row() {
            return current.row();
        }

        public ChangeType changeType() {
            return current.changeType();
        }

        /** Lake rows read by finished buckets. */
        public long lakeRows() {
            return lakeRows;
        }

        /** Moves to a newer snapshot after retention deleted needed records (finished buckets). */
        public int retentionMoves() {
            return retentionMoves;
        }

        /** Store records read by finished buckets. */
        public long storeRecords() {
            return storeRecords;
        }

        @Override
        public void close() {
            if (current != null) {
                current.close();
            }
        }
    }

    /** Builds a {@link UnionScan}. */
    public static final class Builder {
        private final Connection connection;
        private final TablePath path;
        private TableInfo table;
        private LakeStorage lake;
        private List<String> columns;
        private LakePredicate filter;
        private UnionReadMode mode = UnionReadMode.BATCH;

        private Builder(Connection connection, TablePath path) {
            this.connection = Objects.requireNonNull(connection, "connection");
            this.path = Objects.requireNonNull(path, "path");
        }

        /** The lake to read (see {@link LakeAccess}); null reads the store alone. */
        public Builder lake(LakeStorage lakeStorage) {
            this.lake = lakeStorage;
            return this;
        }

        /** The table as already described (skips a describe call); must be {@code path}'s. */
        public Builder table(TableInfo info) {
            this.table = info;
            return this;
        }

        /** The columns to return, in order; all by default. */
        public Builder columns(List<String> names) {
            this.columns = List.copyOf(names);
            return this;
        }

        /** Rows that do not satisfy it are not returned; table columns only. */
        public Builder filter(LakePredicate predicate) {
            this.filter = predicate;
            return this;
        }

        public Builder mode(UnionReadMode readMode) {
            this.mode = Objects.requireNonNull(readMode);
            return this;
        }

        public UnionScan build() {
            return new UnionScan(this);
        }
    }
}
