package dev.tributary.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.runtime.ManualLoop;
import dev.tributary.coordinator.store.InMemoryMetadataStore;
import dev.tributary.coordinator.store.MetadataStore;
import dev.tributary.coordinator.tiering.TieringConfig;
import dev.tributary.coordinator.tiering.TieringManager;
import dev.tributary.coordinator.tiering.TieringState;
import dev.tributary.tiering.api.Attempt;
import dev.tributary.tiering.api.BucketPlan;
import dev.tributary.tiering.api.HeartbeatRequest;
import dev.tributary.tiering.api.HeartbeatResult;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.api.RoundPlan;
import dev.tributary.tiering.api.RoundReport;
import dev.tributary.tiering.api.RoundStats;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/** Runs the real coordinator logic on a manual clock, with a fake store view and lake. */
public final class TieringHarness {
    public final ManualClock clock;
    public final ManualExecutor io = new ManualExecutor();
    public final FakeBuckets buckets = new FakeBuckets();
    public final FakeLake lake = new FakeLake();
    public final FakeMaintenanceLake maintenanceLake = new FakeMaintenanceLake();
    public final ManualExecutor maintenanceIo = new ManualExecutor();
    private dev.tributary.coordinator.maintenance.MaintenanceConfig maintenanceConfig;
    public MetadataStore store;
    public TieringConfig config;
    public ManualLoop loop;
    public CoordinatorCore core;

    public TieringHarness() {
        this(TieringConfig.defaults());
    }

    public TieringHarness(TieringConfig config) {
        this(config, new InMemoryMetadataStore(), new ManualClock(1_000_000_000L));
    }

    public TieringHarness(TieringConfig config, MetadataStore store, ManualClock clock) {
        this.config = config;
        this.store = store;
        this.clock = clock;
        io.autoRun(true);
        start();
    }

    /** A harness whose coordinator also runs lake maintenance, on {@link #maintenanceIo}. */
    public static TieringHarness withMaintenance(
            TieringConfig config, dev.tributary.coordinator.maintenance.MaintenanceConfig m) {
        TieringHarness h = new TieringHarness(config, new InMemoryMetadataStore(), null, m);
        return h;
    }

    private TieringHarness(
            TieringConfig config,
            MetadataStore store,
            ManualClock clock,
            dev.tributary.coordinator.maintenance.MaintenanceConfig maintenance) {
        this.config = config;
        this.store = store;
        this.clock = clock == null ? new ManualClock(1_000_000_000L) : clock;
        this.maintenanceConfig = maintenance;
        io.autoRun(true);
        maintenanceIo.autoRun(true);
        start();
    }

    private void start() {
        loop = new ManualLoop(clock);
        core =
                maintenanceConfig == null
                        ? new CoordinatorCore(config, clock, loop, loop, io, store, buckets, lake)
                        : new CoordinatorCore(
                                config,
                                clock,
                                loop,
                                loop,
                                io,
                                store,
                                buckets,
                                lake,
                                maintenanceConfig,
                                maintenanceIo,
                                maintenanceLake);
        loop.runReady();
        if (core.registry().database("db").isEmpty()) {
            core.createDatabase("db", null, true);
        }
    }

    /** A coordinator crash and restart: timers, queued I/O and memory are lost; the store stays. */
    public void restart() {
        io.clear();
        start();
    }

    /** A crash and restart onto another store instance (e.g. the same directory reopened). */
    public void restart(MetadataStore reopened) {
        this.store = reopened;
        restart();
    }

    public TieringManager tiering() {
        return core.tiering();
    }

    public TableInfo lakeTable(String name, int buckets, Duration freshness) {
        return table(name, buckets, freshness, false, Map.of());
    }

    public TableInfo table(
            String name,
            int bucketCount,
            Duration freshness,
            boolean pk,
            Map<String, String> extra) {
        Schema.Builder s =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column("v", DataTypes.STRING());
        if (pk) {
            s.primaryKey("id");
        }
        TableDescriptor d =
                TableDescriptor.builder(s.build())
                        .bucketCount(bucketCount)
                        .property("table.datalake.enabled", "true")
                        .property("table.datalake.freshness", freshness.toMillis() + "ms")
                        // one copy unless a test asks for more: placement tests count buckets
                        .property("table.replication.factor", "1")
                        .properties(extra)
                        .build();
        TableInfo t = core.createTable(TablePath.of("db", name), d, false);
        loop.runReady();
        return t;
    }

    /** A lake-enabled log table partitioned by a STRING column {@code dt}. */
    public TableInfo partitionedTable(String name, int bucketCount, Duration freshness) {
        TableDescriptor d =
                TableDescriptor.builder(
                                Schema.newBuilder()
                                        .column("id", DataTypes.BIGINT())
                                        .column("dt", DataTypes.STRING())
                                        .build())
                        .partitionKeys("dt")
                        .bucketCount(bucketCount)
                        .property("table.replication.factor", "1")
                        .property("table.datalake.enabled", "true")
                        .property("table.datalake.freshness", freshness.toMillis() + "ms")
                        .build();
        TableInfo t = core.createTable(TablePath.of("db", name), d, false);
        loop.runReady();
        return t;
    }

    /** Adds a partition {@code dt=<value>}; returns its id. */
    public long addPartition(TableInfo t, String value) {
        long id =
                core.createPartition(
                                t.path(),
                                dev.tributary.common.id.PartitionSpec.of("dt", value),
                                false)
                        .partition()
                        .partitionId();
        loop.runReady();
        return id;
    }

    /** Commits the given (partition, bucket) end offsets. */
    public CompletableFuture<Long> commitPartitioned(
            String job,
            RoundPlan plan,
            Map<dev.tributary.common.id.PartitionBucket, Long> ends,
            boolean forceFinished) {
        CompletableFuture<Long> f =
                tiering()
                        .commit(
                                new RoundCommit(
                                        job,
                                        plan.tableId(),
                                        plan.epoch(),
                                        plan.roundId(),
                                        new TreeMap<>(ends),
                                        List.of(new byte[] {1, 2, 3}),
                                        List.of(),
                                        new RoundStats(10, 100),
                                        forceFinished));
        loop.runReady();
        return f;
    }

    /** Every (partition, bucket) of the plan at its cutoff. */
    public static Map<dev.tributary.common.id.PartitionBucket, Long> fullPartitionEnds(
            RoundPlan plan) {
        Map<dev.tributary.common.id.PartitionBucket, Long> ends = new TreeMap<>();
        for (BucketPlan w : plan.buckets()) {
            ends.put(w.key(), w.endOffset());
        }
        return ends;
    }

    /** Writes records to every bucket of a table. */
    public void writeAll(TableInfo t, long perBucket) {
        for (int b = 0; b < t.descriptor().bucketCount(); b++) {
            buckets.write(t.tableId(), b, perBucket);
        }
    }

    public void advance(Duration d) {
        loop.advance(d);
    }

    /**
     * Advances time while the given jobs stay alive: each heartbeats, every interval, all rounds
     * the coordinator has assigned to it.
     */
    public void advanceAlive(Duration d, String... jobs) {
        long left = d.toMillis();
        long step = config.heartbeatInterval().toMillis();
        while (left > 0) {
            long s = Math.min(step, left);
            loop.advanceMillis(s);
            left -= s;
            for (String job : jobs) {
                beat(job);
            }
        }
    }

    /** One heartbeat of a live job for everything it holds. */
    public void beat(String job) {
        List<Attempt> attempts = new java.util.ArrayList<>();
        for (var j : tiering().status().jobs()) {
            if (j.jobId().equals(job)) {
                for (long id : j.tables()) {
                    attempts.add(new Attempt(id, tiering().epoch(id)));
                }
            }
        }
        if (!attempts.isEmpty()) {
            heartbeat(job, attempts, List.of(), false);
        }
    }

    public void advanceMillis(long ms) {
        loop.advanceMillis(ms);
    }

    public HeartbeatResult heartbeat(
            String job, List<Attempt> inFlight, List<RoundReport> reports, boolean request) {
        HeartbeatResult r =
                tiering().heartbeat(new HeartbeatRequest(job, null, inFlight, reports, request));
        loop.runReady();
        return r;
    }

    /** Asks for one table; null if none. */
    public RoundPlan request(String job) {
        return heartbeat(job, List.of(), List.of(), true).plan();
    }

    public RoundPlan request(String job, String group) {
        HeartbeatResult r =
                tiering().heartbeat(new HeartbeatRequest(job, group, List.of(), List.of(), true));
        loop.runReady();
        return r.plan();
    }

    /** Commits the whole plan (every bucket to its end); returns the future. */
    public CompletableFuture<Long> commitAll(String job, RoundPlan plan) {
        return commit(job, plan, fullEnds(plan), false);
    }

    public CompletableFuture<Long> commit(
            String job, RoundPlan plan, Map<Integer, Long> ends, boolean forceFinished) {
        return commit(job, plan, ends, List.of(new byte[] {1, 2, 3}), forceFinished);
    }

    /** Commits a round that wrote nothing (T27): the offsets move on, no file is committed. */
    public CompletableFuture<Long> commitNothing(
            String job, RoundPlan plan, Map<Integer, Long> ends) {
        return commit(job, plan, ends, List.of(), false);
    }

    private CompletableFuture<Long> commit(
            String job,
            RoundPlan plan,
            Map<Integer, Long> ends,
            List<byte[]> results,
            boolean forceFinished) {
        CompletableFuture<Long> f =
                tiering()
                        .commit(
                                RoundCommit.of(
                                        job,
                                        plan.tableId(),
                                        plan.epoch(),
                                        plan.roundId(),
                                        ends,
                                        results,
                                        new RoundStats(10, 100),
                                        forceFinished));
        loop.runReady();
        return f;
    }

    public static Map<Integer, Long> fullEnds(RoundPlan plan) {
        Map<Integer, Long> ends = new TreeMap<>();
        for (BucketPlan w : plan.buckets()) {
            ends.put(w.bucket(), w.endOffset());
        }
        return ends;
    }

    public TieringState state(long tableId) {
        return tiering().state(tableId).orElse(null);
    }

    public TieringState state(TableInfo t) {
        return tiering().state(t.tableId()).orElse(null);
    }

    public void assertState(TableInfo t, TieringState s) {
        assertThat(state(t)).as("state of %s", t.path()).isEqualTo(s);
    }

    public long epoch(TableInfo t) {
        return tiering().epoch(t.tableId());
    }
}
