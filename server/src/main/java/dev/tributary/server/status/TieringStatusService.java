package dev.tributary.server.status;

import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.status.CoordinatorStatus;
import dev.tributary.coordinator.status.JobStatus;
import dev.tributary.coordinator.status.TableTieringStatus;
import dev.tributary.coordinator.tiering.TieringState;
import dev.tributary.server.cluster.CoordinatorRole;
import dev.tributary.server.store.TableService;
import dev.tributary.storage.BucketStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * Joins the coordinator's tiering status with the buckets' end offsets and record timestamps
 * ({@link BucketEnds}, from wherever each bucket is led) into what users see (T28): lake lag in
 * records and in time.
 */
public final class TieringStatusService {
    private final CoordinatorRole coordinator;
    private final BucketStore store;
    private final BucketEnds bucketEnds;
    private final LongFunction<TableInfo> tables;
    private final Clock clock;
    private final Duration heartbeatTimeout;
    private final LakeLocation lake;
    private final Function<TablePath, List<PartitionInfo>> partitions;
    private final Function<TablePath, Map<String, Object>> objectStore;

    /**
     * @param bucketEnds the buckets' end offsets and oldest untiered append times
     * @param lake the server's lake (its format for layout warnings; shown in the status)
     * @param partitions the partitions of a partitioned table (ACTIVE and DROPPING), for the lag
     *     per partition (T35)
     * @param objectStore a table's object-store requests and bytes (T47), or null
     */
    public TieringStatusService(
            CoordinatorRole coordinator,
            BucketStore store,
            BucketEnds bucketEnds,
            LongFunction<TableInfo> tables,
            Clock clock,
            Duration heartbeatTimeout,
            LakeLocation lake,
            Function<TablePath, List<PartitionInfo>> partitions,
            Function<TablePath, Map<String, Object>> objectStore) {
        this.partitions = partitions;
        this.objectStore = objectStore;
        this.coordinator = coordinator;
        this.store = store;
        this.bucketEnds = bucketEnds;
        this.tables = tables;
        this.clock = clock;
        this.heartbeatTimeout = heartbeatTimeout;
        this.lake = lake;
    }

    /** Where the server's lake tables live. */
    public LakeLocation lake() {
        return lake;
    }

    /** A job that has not heartbeated for this long is not counted live. */
    public long heartbeatTimeoutMillis() {
        return heartbeatTimeout.toMillis();
    }

    /**
     * The whole picture: every table's full view, its lag measured. For the lag sampler, metrics
     * and the planner; what users page through is {@link #page(PageRequest)}.
     */
    public Overview overview() {
        CoordinatorStatus status = coordinatorStatus();
        List<TableStatusView> tables = new ArrayList<>();
        for (TableTieringStatus t : status.tables()) {
            tables.add(view(t));
        }
        return new Overview(
                status.timeMillis(),
                tables,
                status.pendingCount(),
                status.tieringCount(),
                liveJobs(status),
                status.jobs());
    }

    /** The coordinator's status as it is, no lag measured. */
    public CoordinatorStatus coordinatorStatus() {
        return TableService.join(coordinator.current().status());
    }

    /** Jobs of {@code status} that heartbeated within the heartbeat timeout. */
    public int liveJobs(CoordinatorStatus status) {
        int live = 0;
        for (JobStatus j : status.jobs()) {
            if (status.timeMillis() - j.lastHeartbeatMillis() <= heartbeatTimeout.toMillis()) {
                live++;
            }
        }
        return live;
    }

    /**
     * One page of the lake tables as rows, with the counts over all of them: what {@code
     * /api/tiering} answers. Only the page's tables have their lag measured.
     */
    public TieringPage page(PageRequest page) {
        CoordinatorStatus status = coordinatorStatus();
        List<TableRow> rows = new ArrayList<>();
        for (TableTieringStatus t : page.of(status.tables())) {
            rows.add(TableRow.of(view(t)));
        }
        return new TieringPage(
                status.timeMillis(),
                lake,
                page.offset(),
                page.limit(),
                status.tables().size(),
                rows,
                status.pendingCount(),
                status.tieringCount(),
                failing(status),
                liveJobs(status),
                status.jobs());
    }

    /**
     * One table's full view (its round history, offsets and partitions).
     *
     * @param table {@code db.table}
     * @throws NotFoundException if it is not a lake table
     */
    public TableStatusView table(String table) {
        for (TableTieringStatus t : coordinatorStatus().tables()) {
            if (t.path().toString().equals(table)) {
                return view(t);
            }
        }
        throw notALakeTable(table);
    }

    /** The error for a name that is not a lake table. */
    public static NotFoundException notALakeTable(String table) {
        return new NotFoundException(
                "'"
                        + table
                        + "' is not a lake table: it does not exist or has"
                        + " table.datalake.enabled=false; GET /api/tiering lists the lake tables");
    }

    /** Tables of {@code status} whose last round failed. */
    public static int failing(CoordinatorStatus status) {
        int failing = 0;
        for (TableTieringStatus t : status.tables()) {
            if (t.consecutiveFailures() > 0) {
                failing++;
            }
        }
        return failing;
    }

    /**
     * A page of {@code /api/tiering}: rows of the tables from {@code offset}, with the counts over
     * all {@code total} of them.
     *
     * @param lake where the lake tables live: format, catalog, warehouse (no credentials)
     * @param total lake tables in all
     * @param pendingCount tables waiting in the queues
     * @param failing tables whose last round failed
     * @param liveJobs jobs that heartbeated within the heartbeat timeout
     */
    public record TieringPage(
            long timeMillis,
            LakeLocation lake,
            int offset,
            int limit,
            int total,
            List<TableRow> tables,
            int pendingCount,
            int tieringCount,
            int failing,
            int liveJobs,
            List<JobStatus> jobs) {}

    /**
     * The coordinator's status of all tables.
     *
     * @param pendingCount tables waiting in the queues
     * @param liveJobs jobs that heartbeated within the heartbeat timeout
     */
    public record Overview(
            long timeMillis,
            List<TableStatusView> tables,
            int pendingCount,
            int tieringCount,
            int liveJobs,
            List<JobStatus> jobs) {}

    /** The full view of one table, its lag measured now. */
    public TableStatusView view(TableTieringStatus t) {
        Map<Integer, Long> ends = new TreeMap<>();
        List<PartitionLagView> partitionLags = new ArrayList<>();
        Measured lag = Measured.of(() -> lag(t, ends, partitionLags));
        List<String> warnings;
        PkDeletesView pkDeletes;
        try {
            TableInfo table = tables.apply(t.tableId());
            warnings = LayoutWarnings.of(table.descriptor(), lake.format());
            pkDeletes = PkDeletesView.of(table.descriptor(), lake.format(), buckets(table), store);
        } catch (TributaryException e) {
            warnings = List.of();
            pkDeletes = null;
        }
        List<TableStatusView.RoundView> rounds = new ArrayList<>();
        t.recentRounds().forEach(r -> rounds.add(TableStatusView.RoundView.of(r)));
        long next = t.nextDueMillis();
        if (t.state() == TieringState.TIERING && t.roundStartMillis() >= 0) {
            next = t.roundStartMillis() + t.freshness().toMillis();
        }
        return new TableStatusView(
                t.tableId(),
                t.path().toString(),
                t.group(),
                t.state().name(),
                t.epoch(),
                t.queuePosition(),
                t.jobId(),
                t.freshness().toMillis(),
                t.lastTieredTimeMillis(),
                t.lakeSnapshotId(),
                TableStatusView.RoundView.of(t.lastRound()),
                rounds,
                lag.millis(),
                lag.records(),
                lag.error(),
                t.consecutiveFailures(),
                t.totalFailures(),
                t.lastFailure(),
                next,
                new TreeMap<>(t.tieredOffsets()),
                ends,
                warnings,
                partitionLags,
                MaintenanceView.of(t.maintenance()),
                objectStore.apply(t.path()),
                pkDeletes);
    }

    /**
     * Every bucket of the table: of each of its partitions (ACTIVE and DROPPING) if partitioned.
     */
    private List<TableBucket> buckets(TableInfo table) {
        int n = table.descriptor().bucketCount();
        List<TableBucket> out = new ArrayList<>();
        if (!table.descriptor().isPartitioned()) {
            for (int b = 0; b < n; b++) {
                out.add(new TableBucket(table.tableId(), b));
            }
            return out;
        }
        for (PartitionInfo p : partitions.apply(table.path())) {
            for (int b = 0; b < n; b++) {
                out.add(new TableBucket(table.tableId(), p.partitionId(), b));
            }
        }
        return out;
    }

    private record Lag(long millis, long records) {}

    /**
     * A lag as a table or partition view shows it: measured, or not measured and the error says why
     * (never a lag that was not measured).
     */
    private record Measured(Long millis, Long records, String error, TributaryException failure) {
        static Measured of(Supplier<Lag> measure) {
            try {
                Lag lag = measure.get();
                return new Measured(lag.millis(), lag.records(), null, null);
            } catch (TributaryException e) {
                return new Measured(null, null, e.getMessage(), e);
            }
        }
    }

    /**
     * Records behind and the age of the oldest of them, over every bucket; fills {@code ends} (for
     * a partitioned table summed over its partitions per bucket number) and, for a partitioned
     * table, {@code views} (one per partition).
     *
     * @throws TributaryException when the table cannot be read
     */
    private Lag lag(TableTieringStatus t, Map<Integer, Long> ends, List<PartitionLagView> views) {
        TableInfo table = tables.apply(t.tableId());
        int buckets = table.descriptor().bucketCount();
        if (!table.descriptor().isPartitioned()) {
            return lag(t, TableBucket.NO_PARTITION, buckets, ends);
        }
        List<PartitionInfo> all = new ArrayList<>(partitions.apply(t.path()));
        all.sort(Comparator.comparing(PartitionInfo::name));
        long records = 0;
        long millis = 0;
        TributaryException failed = null;
        for (PartitionInfo p : all) {
            Map<Integer, Long> partitionEnds = new TreeMap<>();
            Map<Integer, Long> tiered = new TreeMap<>(t.offsets().partition(p.partitionId()));
            Measured lag = Measured.of(() -> lag(t, p.partitionId(), buckets, partitionEnds));
            if (lag.failure() == null) {
                // the table's ends per bucket number, over its partitions: what rates are
                // measured from (tributary plan); a partition's own are in its view
                partitionEnds.forEach((b, e) -> ends.merge(b, e, Long::sum));
                records += lag.records();
                millis = Math.max(millis, lag.millis());
            } else if (failed == null) {
                // an unreadable partition leaves the others' lag visible and the table's unknown
                failed = lag.failure();
            }
            views.add(
                    new PartitionLagView(
                            p.partitionId(),
                            p.name(),
                            p.state().name(),
                            lag.millis(),
                            lag.records(),
                            lag.error(),
                            tiered,
                            partitionEnds));
        }
        if (failed != null) {
            throw failed;
        }
        return new Lag(millis, records);
    }

    private Lag lag(TableTieringStatus t, long partitionId, int buckets, Map<Integer, Long> ends) {
        Map<Integer, Long> tiered = new TreeMap<>();
        for (int b = 0; b < buckets; b++) {
            tiered.put(b, Math.max(0, t.offsets().get(new PartitionBucket(partitionId, b))));
        }
        long records = 0;
        long oldest = Long.MAX_VALUE;
        for (Map.Entry<Integer, BucketEnds.End> e :
                bucketEnds.ends(t.tableId(), partitionId, buckets, tiered).entrySet()) {
            long end = e.getValue().endOffset();
            ends.put(e.getKey(), end);
            long behind = end - tiered.get(e.getKey());
            if (behind > 0) {
                records += behind;
                oldest = Math.min(oldest, e.getValue().firstUntieredMillis().orElseThrow());
            }
        }
        long now = clock.currentTimeMillis();
        return new Lag(oldest == Long.MAX_VALUE ? 0 : Math.max(0, now - oldest), records);
    }
}
