package dev.tributary.coordinator.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.CoordinatorCore;
import dev.tributary.coordinator.FakeBuckets;
import dev.tributary.coordinator.ManualExecutor;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.TableChange;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.runtime.ManualLoop;
import dev.tributary.coordinator.spi.LakeCommitStep;
import dev.tributary.coordinator.store.InMemoryMetadataStore;
import dev.tributary.coordinator.store.MetadataStore;
import dev.tributary.coordinator.store.StoredState;
import dev.tributary.coordinator.store.TieringRecord;
import dev.tributary.coordinator.tiering.TieringConfig;
import dev.tributary.coordinator.tiering.TieringState;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.tiering.api.Attempt;
import dev.tributary.tiering.api.BucketPlan;
import dev.tributary.tiering.api.HeartbeatRequest;
import dev.tributary.tiering.api.HeartbeatResult;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.api.RoundPlan;
import dev.tributary.tiering.api.RoundReport;
import dev.tributary.tiering.api.RoundStats;
import dev.tributary.tiering.api.TableAck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A seeded chaos simulation of the real coordinator logic: several jobs (two groups) with random
 * round durations, job crashes, paused jobs that resume and commit, lost heartbeats, coordinator
 * restarts (with commits caught mid-flight), wall-clock jumps, lake commit failures, and tables
 * created/altered/dropped mid-flight. Invariants are checked after every step; at the end the chaos
 * stops and every lake table with data must be tiered completely.
 */
class ChaosSimulationTest {
    private static final int SEEDS = 40;

    @Test
    @DisplayName("T15-T22 T26 seeded chaos: invariants hold after every step, over many seeds")
    void manySeeds() {
        long base = Long.getLong("chaos.seed", 20261129L);
        long commits = 0;
        long fencedTotal = 0;
        long lakeFailures = 0;
        long restarts = 0;
        for (int i = 0; i < SEEDS; i++) {
            long seed = base + i;
            try {
                World w = new World(seed);
                w.run();
                commits += w.commitsOk;
                fencedTotal += w.fenced;
                lakeFailures += w.lakeFailures;
                restarts += w.restarts;
            } catch (Throwable e) {
                throw new AssertionError(
                        "chaos simulation failed with seed "
                                + seed
                                + " (rerun with -Dchaos.seed="
                                + seed
                                + ")",
                        e);
            }
        }
        System.out.printf(
                "chaos: %d seeds from %d, %d commits, %d fenced commits, %d lake failures,"
                        + " %d coordinator restarts%n",
                SEEDS, base, commits, fencedTotal, lakeFailures, restarts);
        assertThat(fencedTotal).as("the chaos produced stale commits to fence").isPositive();
        assertThat(restarts).isPositive();
    }

    /** A store whose writes fail once the process it belongs to has "died". */
    private static final class DyingStore implements MetadataStore {
        final MetadataStore delegate;
        volatile boolean dead;

        DyingStore(MetadataStore delegate) {
            this.delegate = delegate;
        }

        private void check() {
            if (dead) {
                throw new StorageException("process died");
            }
        }

        @Override
        public StoredState load() {
            return delegate.load();
        }

        @Override
        public long startIncarnation() {
            check();
            return delegate.startIncarnation();
        }

        @Override
        public void putDatabase(DatabaseInfo d) {
            check();
            delegate.putDatabase(d);
        }

        @Override
        public void removeDatabase(String n) {
            check();
            delegate.removeDatabase(n);
        }

        @Override
        public void putTable(TableInfo t) {
            check();
            delegate.putTable(t);
        }

        @Override
        public void removeTable(long id) {
            check();
            delegate.removeTable(id);
        }

        @Override
        public boolean putTieringRecord(TieringRecord r) {
            check();
            return delegate.putTieringRecord(r);
        }

        @Override
        public Optional<TieringRecord> tieringRecord(long id) {
            return delegate.tieringRecord(id);
        }

        @Override
        public void putPartition(dev.tributary.coordinator.metadata.PartitionInfo p) {
            check();
            delegate.putPartition(p);
        }

        @Override
        public void removePartition(long tableId, long partitionId) {
            check();
            delegate.removePartition(tableId, partitionId);
        }

        @Override
        public java.util.Map<Integer, dev.tributary.coordinator.metadata.ServerRegistration>
                servers() {
            return delegate.servers();
        }

        @Override
        public void putServer(dev.tributary.coordinator.metadata.ServerRegistration server) {
            check();
            delegate.putServer(server);
        }

        @Override
        public void removeServer(int serverId) {
            check();
            delegate.removeServer(serverId);
        }

        @Override
        public void setDraining(int serverId, boolean draining) {
            check();
            delegate.setDraining(serverId, draining);
        }

        @Override
        public boolean putAssignment(
                dev.tributary.coordinator.metadata.BucketAssignment assignment) {
            check();
            return delegate.putAssignment(assignment);
        }

        @Override
        public void close() {}
    }

    private static final class SimJob {
        final String id;
        final String group;
        final Map<Long, JobRound> rounds = new HashMap<>();
        long nextBeat;
        long pausedUntil = -1;
        boolean crashed;

        SimJob(String id, String group) {
            this.id = id;
            this.group = group;
        }
    }

    private static final class JobRound {
        final RoundPlan plan;
        final long doneAt;
        CompletableFuture<Long> commit;

        JobRound(RoundPlan plan, long doneAt) {
            this.plan = plan;
            this.doneAt = doneAt;
        }
    }

    private static final class World {
        final long seed;
        final Random rnd;
        final ManualClock clock = new ManualClock(1_700_000_000_000L);
        final InMemoryMetadataStore durable = new InMemoryMetadataStore();
        final FakeBuckets buckets = new FakeBuckets();
        final ManualExecutor io = new ManualExecutor();
        final TieringConfig config = TieringConfig.defaults();
        final List<SimJob> jobs = new ArrayList<>();
        final Map<String, RoundPlan> plans = new HashMap<>(); // "table/epoch" -> plan
        final Map<Long, Map<Integer, Long>> lakeOffsets = new HashMap<>();
        final Map<Long, Long> maxEpoch = new HashMap<>();
        final Map<Long, Long> maxPlanEpoch = new HashMap<>();
        final Map<Long, Map<Integer, Long>> lastRecord = new HashMap<>();
        final Set<Long> dropped = new HashSet<>();
        ManualLoop loop;
        DyingStore store;
        CoordinatorCore core;
        boolean zombie;
        boolean chaos = true;
        int tableCounter;
        int lakeFailures;
        long commitsOk;
        long fenced;
        long restarts;

        World(long seed) {
            this.seed = seed;
            this.rnd = new Random(seed);
        }

        final LakeCommitStep lake =
                new LakeCommitStep() {
                    final Map<Long, List<LakeSnapshot>> snaps = new HashMap<>();
                    long next = 1;

                    @Override
                    public LakeCommitResult commit(
                            TablePath path,
                            List<byte[]> results,
                            TieringSnapshotProperties p,
                            dev.tributary.lake.api.commit.TieredRound base) {
                        if (chaos && rnd.nextInt(12) == 0) {
                            lakeFailures++;
                            throw new IllegalStateException("lake commit failed");
                        }
                        checkCommitIsCurrentAndContiguous(p);
                        long id = next++;
                        snaps.computeIfAbsent(p.tableId(), k -> new ArrayList<>())
                                .add(new LakeSnapshot(id, p.committedAtMillis(), p));
                        if (chaos && rnd.nextInt(12) == 0) {
                            lakeFailures++;
                            throw new IllegalStateException("lake committed, then the RPC failed");
                        }
                        return LakeCommitResult.committed(id, 1, 1, 1);
                    }

                    @Override
                    public void abort(TablePath path, List<byte[]> results) {}

                    @Override
                    public List<String> deleteOrphanFiles(TablePath path, OrphanPolicy policy) {
                        return List.of();
                    }

                    @Override
                    public Optional<LakeSnapshot> latestTieringSnapshot(
                            TablePath path, long tableId) {
                        List<LakeSnapshot> l = snaps.get(tableId);
                        return l == null ? Optional.empty() : Optional.of(l.get(l.size() - 1));
                    }
                };

        /** No stale attempt reaches the lake; each round starts where the lake ended (T19, T21). */
        void checkCommitIsCurrentAndContiguous(TieringSnapshotProperties p) {
            if (!zombie && core.tiering().state(p.tableId()).isPresent()) {
                assertThat(core.tiering().state(p.tableId()))
                        .as("state at lake commit")
                        .contains(TieringState.TIERING);
                assertThat(core.tiering().epoch(p.tableId()))
                        .as("epoch at lake commit")
                        .isEqualTo(p.epoch());
            }
            RoundPlan plan = plans.get(p.tableId() + "/" + p.epoch());
            assertThat(plan).as("plan of committed epoch").isNotNull();
            Map<Integer, Long> lakeNow =
                    lakeOffsets.computeIfAbsent(p.tableId(), k -> new TreeMap<>());
            for (Map.Entry<Integer, Long> e : p.bucketOffsets().entrySet()) {
                if (e.getValue().equals(lakeNow.get(e.getKey()))) {
                    continue; // not part of this round
                }
                BucketPlan w =
                        plan.buckets().stream()
                                .filter(x -> x.bucket() == e.getKey())
                                .findFirst()
                                .orElseThrow();
                if (w.kind() == BucketPlan.Kind.SNAPSHOT) {
                    assertThat(lakeNow.get(e.getKey()))
                            .as("snapshot bucket never tiered before")
                            .isNull();
                } else {
                    assertThat(lakeNow.getOrDefault(e.getKey(), 0L))
                            .as(
                                    "round of table %d bucket %d starts where the lake ends",
                                    p.tableId(), e.getKey())
                            .isEqualTo(w.startOffset());
                }
                assertThat(e.getValue()).isGreaterThan(lakeNow.getOrDefault(e.getKey(), -1L));
                lakeNow.put(e.getKey(), e.getValue());
            }
        }

        void start() {
            loop = new ManualLoop(clock);
            store = new DyingStore(durable);
            core = new CoordinatorCore(config, clock, loop, loop, io, store, buckets, lake);
            if (core.registry().database("db").isEmpty()) {
                core.createDatabase("db", null, false);
            }
            loop.runReady();
        }

        /** The coordinator process dies; commits running at that instant land or not. */
        void crashCoordinator() {
            restarts++;
            store.dead = true;
            zombie = true;
            while (io.size() > 0) {
                if (rnd.nextBoolean()) {
                    io.runOne(); // lake commit may land; the record write fails (process died)
                } else {
                    io.clear();
                }
            }
            zombie = false;
            // Commit RPCs to the dead process fail; the jobs drop those rounds.
            for (SimJob j : jobs) {
                j.rounds.values().removeIf(jr -> jr.commit != null && !jr.commit.isDone());
            }
            start();
        }

        void run() {
            start();
            jobs.add(new SimJob("j1", null));
            jobs.add(new SimJob("j2", null));
            jobs.add(new SimJob("g1", "gold"));
            for (int i = 0; i < 6; i++) {
                createTable();
            }
            long end = clock.currentTimeMillis() + Duration.ofMinutes(25).toMillis();
            while (clock.currentTimeMillis() < end) {
                step();
            }
            // Quiesce: no more chaos or writes; everything with data must get tiered.
            chaos = false;
            for (SimJob j : jobs) {
                j.pausedUntil = -1;
                j.crashed = false;
            }
            long quiet = clock.currentTimeMillis() + Duration.ofMinutes(15).toMillis();
            while (clock.currentTimeMillis() < quiet) {
                step();
            }
            for (TableInfo t : core.registry().tables()) {
                if (!t.lakeEnabled()) {
                    continue;
                }
                TieringRecord rec = core.tiering().record(t.tableId()).orElseThrow();
                for (int b = 0; b < t.descriptor().bucketCount(); b++) {
                    assertThat(rec.tieredOffsets().getOrDefault(b, 0L))
                            .as(
                                    "table %s bucket %d fully tiered (seed %d): %s, jobs %s",
                                    t.path(),
                                    b,
                                    seed,
                                    core.tiering().tableStatus(t.tableId()),
                                    core.tiering().status().jobs())
                            .isEqualTo(buckets.end(t.tableId(), b));
                    assertThat(lakeOffsets.getOrDefault(t.tableId(), Map.of()).getOrDefault(b, 0L))
                            .isEqualTo(buckets.end(t.tableId(), b));
                }
            }
            assertThat(commitsOk).as("commits that went through").isPositive();
        }

        void step() {
            loop.advanceMillis(200 + rnd.nextInt(2800));
            long now = clock.currentTimeMillis();
            if (chaos) {
                chaosEvent();
            }
            if (rnd.nextInt(3) == 0) {
                while (io.size() > 0 && rnd.nextInt(3) > 0) {
                    io.runOne();
                }
            }
            if (!chaos) {
                while (io.runOne()) {}
            }
            loop.runReady();
            for (SimJob j : jobs) {
                act(j, now);
            }
            loop.runReady();
            checkInvariants();
        }

        void chaosEvent() {
            int r = rnd.nextInt(100);
            List<TableInfo> tables = new ArrayList<>(core.registry().tables());
            TableInfo some = tables.isEmpty() ? null : tables.get(rnd.nextInt(tables.size()));
            if (r < 30 && some != null) {
                for (int i = 0; i < 3; i++) {
                    buckets.write(
                            some.tableId(),
                            rnd.nextInt(some.descriptor().bucketCount()),
                            1 + rnd.nextInt(50));
                }
                if (some.descriptor().hasPrimaryKey() && rnd.nextInt(4) == 0) {
                    int b = rnd.nextInt(some.descriptor().bucketCount());
                    long end = buckets.end(some.tableId(), b);
                    if (end > 0) {
                        buckets.snapshot(
                                some.tableId(), b, rnd.nextInt(1000), 1 + rnd.nextInt((int) end));
                    }
                }
            } else if (r < 33) {
                createTable();
            } else if (r < 35 && some != null) {
                core.dropTable(some.path(), false);
                dropped.add(some.tableId());
            } else if (r < 38 && some != null) {
                core.alterTable(
                        some.path(),
                        List.of(
                                TableChange.set(
                                        "table.datalake.freshness",
                                        (10 + rnd.nextInt(110)) + "s")));
            } else if (r < 40 && some != null) {
                core.alterTable(
                        some.path(),
                        List.of(
                                TableChange.set(
                                        "table.datalake.enabled",
                                        String.valueOf(rnd.nextInt(3) > 0))));
            } else if (r < 41 && some != null) {
                core.alterTable(
                        some.path(),
                        List.of(
                                TableChange.set(
                                        "table.datalake.tiering.group",
                                        rnd.nextBoolean() ? "gold" : "default")));
            } else if (r < 44) {
                SimJob j = jobs.get(rnd.nextInt(jobs.size()));
                j.pausedUntil = clock.currentTimeMillis() + rnd.nextInt(30_000);
            } else if (r < 46) {
                SimJob j = jobs.get(rnd.nextInt(jobs.size()));
                j.rounds.clear(); // the job process restarts and loses its rounds
                j.crashed = true;
            } else if (r < 47) {
                crashCoordinator();
            } else if (r < 48) {
                // Wall-clock jump (NTP step), forward or back.
                clock.setCurrentTimeMillis(
                        clock.currentTimeMillis()
                                + (rnd.nextBoolean() ? 1 : -1) * rnd.nextInt(120_000));
            }
        }

        void createTable() {
            boolean pk = rnd.nextInt(3) == 0;
            Schema.Builder s = Schema.newBuilder().column("k", DataTypes.BIGINT());
            if (pk) {
                s.primaryKey("k");
            }
            TableDescriptor.Builder d =
                    TableDescriptor.builder(s.build())
                            .bucketCount(1 + rnd.nextInt(4))
                            .property("table.datalake.enabled", String.valueOf(rnd.nextInt(5) > 0))
                            .property("table.datalake.freshness", (10 + rnd.nextInt(110)) + "s");
            if (rnd.nextInt(4) == 0) {
                d.property("table.datalake.tiering.group", "gold");
            }
            core.createTable(TablePath.of("db", "t" + tableCounter++), d.build(), false);
        }

        void act(SimJob j, long now) {
            if (j.pausedUntil > now) {
                return;
            }
            if (j.crashed) {
                j.crashed = false;
                core.tiering().registerJob(j.id, j.group, 0);
            }
            // Finished rounds: commit (full, force-finished or invalid) or report.
            List<RoundReport> reports = new ArrayList<>();
            for (JobRound jr : new ArrayList<>(j.rounds.values())) {
                if (jr.commit != null) {
                    if (jr.commit.isDone()) {
                        try {
                            jr.commit.join();
                            commitsOk++;
                        } catch (CompletionException e) {
                            if (e.getCause() instanceof FencedException) {
                                fenced++;
                            }
                        }
                        j.rounds.remove(jr.plan.tableId());
                    }
                    continue;
                }
                if (jr.doneAt > now) {
                    continue;
                }
                int o = chaos ? rnd.nextInt(100) : 0;
                if (o < 75) {
                    jr.commit = commit(j, jr.plan, false);
                } else if (o < 85) {
                    jr.commit = commit(j, jr.plan, true);
                } else if (o < 92) {
                    reports.add(
                            RoundReport.failed(jr.plan.tableId(), jr.plan.epoch(), "write error"));
                    j.rounds.remove(jr.plan.tableId());
                } else if (o < 96) {
                    Map<Integer, Long> bad = new TreeMap<>();
                    bad.put(
                            jr.plan.buckets().get(0).bucket(),
                            jr.plan.buckets().get(0).endOffset() + 5);
                    jr.commit =
                            core.tiering()
                                    .commit(
                                            RoundCommit.of(
                                                    j.id,
                                                    jr.plan.tableId(),
                                                    jr.plan.epoch(),
                                                    jr.plan.roundId(),
                                                    bad,
                                                    List.of(),
                                                    null,
                                                    false));
                } else {
                    reports.add(RoundReport.forceFinished(jr.plan.tableId(), jr.plan.epoch()));
                    j.rounds.remove(jr.plan.tableId());
                }
            }
            boolean beat = now >= j.nextBeat && !(chaos && rnd.nextInt(8) == 0);
            boolean request = j.rounds.size() < 3 && rnd.nextInt(2) == 0;
            if (!beat && reports.isEmpty() && !request) {
                return;
            }
            List<Attempt> attempts = new ArrayList<>();
            if (beat) {
                for (JobRound jr : j.rounds.values()) {
                    attempts.add(new Attempt(jr.plan.tableId(), jr.plan.epoch()));
                }
                j.nextBeat = now + config.heartbeatInterval().toMillis();
            }
            HeartbeatResult resp =
                    core.tiering()
                            .heartbeat(
                                    new HeartbeatRequest(
                                            j.id, j.group, attempts, reports, request));
            for (TableAck a : resp.acks()) {
                if (a.fenced()) {
                    JobRound jr = j.rounds.get(a.tableId());
                    if (jr != null && jr.plan.epoch() == a.epoch() && jr.commit == null) {
                        j.rounds.remove(a.tableId()); // told it is stale: drop the round
                    }
                }
            }
            RoundPlan p = resp.plan();
            if (p != null) {
                JobRound old = j.rounds.get(p.tableId());
                if (old != null) {
                    // The job had not learned yet that its old attempt was fenced.
                    assertThat(old.plan.epoch()).isLessThan(p.epoch());
                }
                TableInfo t = core.registry().byId(p.tableId()).orElseThrow();
                assertThat(t.tieringGroup()).isEqualTo(j.group == null ? "default" : j.group);
                assertThat(p.buckets()).isNotEmpty();
                assertThat(p.epoch())
                        .as("a new round's epoch is above every earlier one")
                        .isGreaterThan(maxPlanEpoch.getOrDefault(p.tableId(), 0L));
                maxPlanEpoch.put(p.tableId(), p.epoch());
                plans.put(p.tableId() + "/" + p.epoch(), p);
                j.rounds.put(
                        p.tableId(), new JobRound(p, now + rnd.nextInt(chaos ? 20_000 : 3_000)));
            }
        }

        CompletableFuture<Long> commit(SimJob j, RoundPlan p, boolean forceFinish) {
            Map<Integer, Long> ends = new TreeMap<>();
            for (BucketPlan w : p.buckets()) {
                if (w.kind() == BucketPlan.Kind.SNAPSHOT || !forceFinish) {
                    ends.put(w.bucket(), w.endOffset());
                } else if (rnd.nextBoolean()) {
                    ends.put(
                            w.bucket(),
                            w.startOffset() + rnd.nextLong(w.endOffset() - w.startOffset() + 1));
                }
            }
            return core.tiering()
                    .commit(
                            RoundCommit.of(
                                    j.id,
                                    p.tableId(),
                                    p.epoch(),
                                    p.roundId(),
                                    ends,
                                    List.of(new byte[] {1}),
                                    new RoundStats(1, 1),
                                    forceFinish));
        }

        void checkInvariants() {
            var status = core.tiering().status();
            Set<Long> held = new HashSet<>();
            for (var job : status.jobs()) {
                for (long id : job.tables()) {
                    assertThat(held.add(id)).as("table %d is in at most one job", id).isTrue();
                }
            }
            for (var t : status.tables()) {
                long id = t.tableId();
                if (t.state() == TieringState.PENDING || t.state() == TieringState.TIERING) {
                    // The live epoch (given on entry into Pending) never goes back.
                    assertThat(t.epoch())
                            .as("epoch of %d only grows", id)
                            .isGreaterThanOrEqualTo(maxEpoch.getOrDefault(id, 0L));
                    maxEpoch.put(id, t.epoch());
                }
                if (t.state() == TieringState.TIERING) {
                    assertThat(held).as("a tiering table belongs to a job").contains(id);
                }
                Map<Integer, Long> prev = lastRecord.getOrDefault(id, Map.of());
                for (Map.Entry<Integer, Long> e : prev.entrySet()) {
                    assertThat(t.tieredOffsets().getOrDefault(e.getKey(), -1L))
                            .as("tiered offset of %d/%d only grows", id, e.getKey())
                            .isGreaterThanOrEqualTo(e.getValue());
                }
                lastRecord.put(id, new TreeMap<>(t.tieredOffsets()));
                Map<Integer, Long> lakeNow = lakeOffsets.getOrDefault(id, Map.of());
                for (Map.Entry<Integer, Long> e : t.tieredOffsets().entrySet()) {
                    assertThat(e.getValue())
                            .as("record never ahead of the lake")
                            .isLessThanOrEqualTo(lakeNow.getOrDefault(e.getKey(), 0L));
                }
            }
            for (long id : dropped) {
                assertThat(core.tiering().state(id)).isEmpty();
            }
        }
    }
}
