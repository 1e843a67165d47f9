package dev.tributary.coordinator.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.LakeBucket;
import dev.tributary.coordinator.FakeMaintenanceLake;
import dev.tributary.coordinator.TieringHarness;
import dev.tributary.coordinator.metadata.TableChange;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.status.MaintenanceRun;
import dev.tributary.coordinator.status.TableMaintenanceStatus;
import dev.tributary.coordinator.tiering.TieringConfig;
import dev.tributary.coordinator.tiering.TieringState;
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.lake.api.maintenance.CompactionPolicy;
import dev.tributary.lake.api.maintenance.ExpiryPolicy;
import dev.tributary.lake.api.maintenance.ExpiryResult;
import dev.tributary.tiering.api.HeartbeatRequest;
import dev.tributary.tiering.api.HeartbeatResult;
import dev.tributary.tiering.api.MaintenanceAttempt;
import dev.tributary.tiering.api.MaintenanceCommit;
import dev.tributary.tiering.api.MaintenanceGrant;
import dev.tributary.tiering.api.MaintenanceOutcome;
import dev.tributary.tiering.api.RoundPlan;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The coordinator's side of lake maintenance (T38, T39) on the real manager logic with a manual
 * clock: when passes run, that compaction goes only to jobs without tiering work, how its commit
 * ends (committed, gave way, fenced, failed) and that dead grants become orphans (T23).
 */
class MaintenanceManagerTest {
    private static final Duration FRESHNESS = Duration.ofSeconds(30);
    private final TieringHarness h =
            TieringHarness.withMaintenance(
                    TieringConfig.defaults(), new MaintenanceConfig(1, Duration.ofMinutes(5)));
    private final FakeMaintenanceLake lake = h.maintenanceLake;

    private MaintenanceManager maintenance() {
        return h.core.maintenance().orElseThrow();
    }

    private TableInfo table(String name, Map<String, String> extra) {
        return h.table(name, 4, FRESHNESS, false, extra);
    }

    private TableMaintenanceStatus status(TableInfo t) {
        return maintenance().status(t.tableId()).orElseThrow();
    }

    private HeartbeatResult ask(
            String job, boolean acceptMaintenance, List<MaintenanceAttempt> inFlight) {
        HeartbeatResult r =
                h.tiering()
                        .heartbeat(
                                new HeartbeatRequest(
                                        job,
                                        null,
                                        List.of(),
                                        List.of(),
                                        true,
                                        0,
                                        inFlight,
                                        List.of(),
                                        acceptMaintenance));
        h.loop.runReady();
        return r;
    }

    /** A plain heartbeat naming the job's grants. */
    private HeartbeatResult beat(String job, List<MaintenanceAttempt> inFlight) {
        HeartbeatResult r =
                h.tiering()
                        .heartbeat(
                                new HeartbeatRequest(
                                        job, null, List.of(), List.of(), false, 0, inFlight,
                                        List.of(), false));
        h.loop.runReady();
        return r;
    }

    /** Runs one round of {@code t} that writes files, as job {@code job}. */
    private void tierOneRound(TableInfo t, String job) {
        h.writeAll(t, 10);
        h.advance(FRESHNESS);
        RoundPlan plan = h.request(job);
        assertThat(plan).isNotNull();
        assertThat(plan.tableId()).isEqualTo(t.tableId());
        h.commitAll(job, plan).join();
    }

    private CompletableFuture<MaintenanceOutcome> commit(
            String job, MaintenanceGrant g, int results) {
        List<byte[]> bytes = new java.util.ArrayList<>();
        for (int i = 0; i < results; i++) {
            bytes.add(new byte[] {(byte) i});
        }
        CompletableFuture<MaintenanceOutcome> f =
                maintenance().commit(new MaintenanceCommit(job, g.attempt(), bytes));
        h.loop.runReady();
        return f;
    }

    @Test
    void t38_aRoundThatWroteFilesTriggersAPassWhosePlanIsQueuedWithTheTablesBudget() {
        TableInfo t =
                table(
                        "clicks",
                        Map.of(
                                "table.datalake.compaction.max-files", "3",
                                "table.datalake.compaction.max-buckets", "2"));
        lake.planBuckets(t.path(), List.of(2, 0, 3));
        assertThat(lake.calls("plan")).isEmpty();
        tierOneRound(t, "job");

        List<FakeMaintenanceLake.Call> plans = lake.calls("plan");
        assertThat(plans).hasSize(1);
        assertThat(plans.get(0).argument()).isEqualTo(new CompactionPolicy(3, 2));
        ExpiryPolicy expiry = (ExpiryPolicy) lake.calls("expire").get(0).argument();
        assertThat(expiry).isEqualTo(new ExpiryPolicy(t.tableId(), 10, Duration.ofHours(1)));
        TableMaintenanceStatus s = status(t);
        assertThat(s.state()).isEqualTo(MaintenanceState.QUEUED);
        assertThat(s.queuePosition()).isZero();
        assertThat(s.stats().dataFilesPerBucket()).containsEntry(2, 9);
        assertThat(s.statsAtMillis()).isEqualTo(h.clock.currentTimeMillis());

        // a job that cannot take compaction gets nothing; one that can gets the planned buckets
        assertThat(ask("job", false, List.of()).maintenance()).isNull();
        MaintenanceGrant g = ask("job", true, List.of()).maintenance();
        assertThat(g).isNotNull();
        assertThat(g.units()).containsExactly(LakeBucket.of(2), LakeBucket.of(0));
        assertThat(g.maxFiles()).isEqualTo(3);
        assertThat(g.maintenanceId()).isGreaterThanOrEqualTo(h.core.incarnation() * 1_000_000_000L);
        assertThat(status(t).state()).isEqualTo(MaintenanceState.COMPACTING);
        assertThat(status(t).jobId()).isEqualTo("job");
    }

    @Test
    void t38_tieringWorkAlwaysGoesFirst() {
        TableInfo a = table("a", Map.of());
        TableInfo b = table("b", Map.of());
        lake.planBuckets(a.path(), List.of(0));
        tierOneRound(a, "job");
        assertThat(status(a).state()).isEqualTo(MaintenanceState.QUEUED);
        h.writeAll(b, 5);
        h.advance(FRESHNESS);
        assertThat(h.state(b)).isEqualTo(TieringState.PENDING);

        HeartbeatResult first = ask("job", true, List.of());
        assertThat(first.plan()).as("the pending table's round, not the compaction").isNotNull();
        assertThat(first.plan().tableId()).isEqualTo(b.tableId());
        assertThat(first.maintenance()).isNull();
        HeartbeatResult second = ask("job", true, List.of());
        assertThat(second.plan()).isNull();
        assertThat(second.maintenance().tableId()).isEqualTo(a.tableId());
    }

    @Test
    void t38_aWaitingJobGetsCompactionTheMomentItIsQueued() {
        TableInfo t = table("waited", Map.of());
        lake.planBuckets(t.path(), List.of(1));
        h.writeAll(t, 10);
        h.advance(FRESHNESS);
        RoundPlan plan = h.request("tierer");
        CompletableFuture<HeartbeatResult> parked =
                h.tiering()
                        .heartbeatAsync(
                                new HeartbeatRequest(
                                        "idle", null, List.of(), List.of(), true, 10_000, List.of(),
                                        List.of(), true));
        h.loop.runReady();
        assertThat(parked).isNotDone();
        h.commitAll("tierer", plan).join();
        assertThat(parked).isCompleted();
        assertThat(parked.join().maintenance().tableId()).isEqualTo(t.tableId());
    }

    @Test
    void t38_aCommittedCompactionIsRecordedAndFollowedByAPass() {
        TableInfo t = table("orders", Map.of());
        lake.planBuckets(t.path(), List.of(0, 1));
        tierOneRound(t, "job");
        MaintenanceGrant g = ask("job", true, List.of()).maintenance();
        lake.planBuckets(t.path(), List.of());
        int passes = lake.calls("plan").size();

        MaintenanceOutcome o = commit("job", g, 2).join();
        assertThat(o.kind()).isEqualTo(MaintenanceOutcome.Kind.COMMITTED);
        assertThat(o.snapshotId()).isPositive();
        TableMaintenanceStatus s = status(t);
        assertThat(s.state()).isEqualTo(MaintenanceState.IDLE);
        assertThat(s.compactions()).isEqualTo(1);
        assertThat(s.bytesRewritten()).isEqualTo(200);
        assertThat(s.lastCompaction().outcome()).isEqualTo(MaintenanceRun.Outcome.COMMITTED);
        assertThat(s.lastCompaction().maintenanceId()).isEqualTo(g.maintenanceId());
        assertThat(s.lastCompaction().snapshotId()).isEqualTo(o.snapshotId());
        assertThat(lake.calls("plan"))
                .as("statistics and expiry right after a compaction")
                .hasSize(passes + 1);
        assertThat(lake.aborted()).isEmpty();
    }

    @Test
    void t38_aCompactionTheLakeRefusesGivesWayDeletesItsFilesAndIsPlannedAgainLater() {
        TableInfo t = table("events", Map.of());
        lake.planBuckets(t.path(), List.of(3));
        tierOneRound(t, "job");
        MaintenanceGrant g = ask("job", true, List.of()).maintenance();
        lake.failNextCommit(FakeMaintenanceLake.Mode.CONFLICT);
        int passes = lake.calls("plan").size();

        MaintenanceOutcome o = commit("job", g, 1).join();
        assertThat(o.kind()).isEqualTo(MaintenanceOutcome.Kind.YIELDED);
        assertThat(o.message()).contains("gone");
        assertThat(lake.aborted()).hasSize(1);
        TableMaintenanceStatus s = status(t);
        assertThat(s.compactionsYielded()).isEqualTo(1);
        assertThat(s.lastCompaction().outcome()).isEqualTo(MaintenanceRun.Outcome.YIELDED);
        assertThat(s.state()).isEqualTo(MaintenanceState.IDLE);
        assertThat(lake.calls("plan")).as("not at once").hasSize(passes);
        assertThat(s.nextPassMillis()).isEqualTo(h.clock.currentTimeMillis() + 60_000);
        h.advance(Duration.ofMinutes(1));
        assertThat(lake.calls("plan")).hasSize(passes + 1);
        assertThat(status(t).state()).isEqualTo(MaintenanceState.QUEUED);
        // tiering never noticed
        assertThat(h.state(t)).isIn(TieringState.SCHEDULED, TieringState.PENDING);
        assertThat(h.tiering().tableStatus(t.tableId()).orElseThrow().totalFailures()).isZero();
    }

    @Test
    void t23_aGrantWhoseJobWentSilentIsGivenUpAndItsFilesGoWithTheNextRound() {
        TableInfo t = table("silent", Map.of());
        lake.planBuckets(t.path(), List.of(0));
        tierOneRound(t, "job");
        MaintenanceGrant g = ask("job", true, List.of()).maintenance();
        assertThat(maintenance().deadUpTo(t.tableId())).isEqualTo(g.maintenanceId() - 1);

        // the job keeps tiering (heartbeats name the grant) for a while, then forgets it
        for (int i = 0; i < 5; i++) {
            h.advanceMillis(h.config.heartbeatInterval().toMillis());
            assertThat(beat("job", List.of(g.attempt())).fencedMaintenance()).isEmpty();
        }
        assertThat(status(t).state()).isEqualTo(MaintenanceState.COMPACTING);
        h.advance(h.config.heartbeatTimeout().plus(h.config.heartbeatInterval()));
        TableMaintenanceStatus s = status(t);
        assertThat(s.state()).isNotEqualTo(MaintenanceState.COMPACTING);
        assertThat(s.compactionFailures()).isEqualTo(1);
        assertThat(s.lastError()).contains("no heartbeat");
        assertThat(maintenance().deadUpTo(t.tableId())).isGreaterThanOrEqualTo(g.maintenanceId());
        assertThat(beat("job", List.of(g.attempt())).fencedMaintenance())
                .containsExactly(g.attempt());
        assertThat(commit("job", g, 1).join().kind()).isEqualTo(MaintenanceOutcome.Kind.FENCED);
        assertThat(lake.aborted()).as("a fenced grant's results are deleted").hasSize(1);

        // the table's next commit sweeps the grant's orphans (T23)
        int sweeps = h.lake.sweeps().size();
        tierOneRound(t, "job");
        List<OrphanPolicy> after = h.lake.sweeps();
        assertThat(after).hasSize(sweeps + 1);
        assertThat(after.get(after.size() - 1).deadMaintenanceUpTo())
                .isGreaterThanOrEqualTo(g.maintenanceId());
    }

    @Test
    void aGrantPastTheMaintenanceTimeoutIsGivenUpAndAJobRestartEndsItsGrants() {
        TableInfo t = table("slow", Map.of());
        lake.planBuckets(t.path(), List.of(0));
        tierOneRound(t, "job");
        MaintenanceGrant g = ask("job", true, List.of()).maintenance();
        for (int i = 0; i < 160; i++) { // 5 minutes of heartbeats
            h.advanceMillis(h.config.heartbeatInterval().toMillis());
            beat("job", List.of(g.attempt()));
        }
        assertThat(status(t).lastError()).contains("tiering.maintenance.timeout");
        assertThat(status(t).state()).isNotEqualTo(MaintenanceState.COMPACTING);

        h.advance(Duration.ofMinutes(2));
        MaintenanceGrant again = ask("job", true, List.of()).maintenance();
        assertThat(again).isNotNull();
        assertThat(again.maintenanceId()).isGreaterThan(g.maintenanceId());
        h.tiering().registerJob("job", null, 0);
        assertThat(status(t).lastError()).contains("registered again");
        assertThat(commit("job", again, 1).join().kind()).isEqualTo(MaintenanceOutcome.Kind.FENCED);
    }

    @Test
    void passesRunAtMostOncePerIntervalAndAutoCompactionOffNeverQueues() {
        TableInfo t = table("often", Map.of("table.datalake.auto-compaction", "false"));
        lake.planBuckets(t.path(), List.of(0, 1));
        lake.expireNext(new ExpiryResult(4, 10, 7, 7000));
        tierOneRound(t, "job");
        assertThat(lake.calls("plan")).as("no plan without auto-compaction").isEmpty();
        assertThat(lake.calls("stats")).hasSize(1);
        TableMaintenanceStatus s = status(t);
        assertThat(s.state()).isEqualTo(MaintenanceState.IDLE);
        assertThat(s.snapshotsExpired()).isEqualTo(4);
        assertThat(s.filesDeleted()).isEqualTo(7);
        assertThat(s.bytesReclaimed()).isEqualTo(7000);
        assertThat(s.lastExpiryMillis()).isEqualTo(h.clock.currentTimeMillis());

        tierOneRound(t, "job"); // 30 s later: inside the 1 min interval
        assertThat(lake.calls("stats")).hasSize(1);
        h.advance(Duration.ofSeconds(30));
        assertThat(lake.calls("stats")).hasSize(2);
        assertThat(ask("job", true, List.of()).maintenance()).isNull();

        // switched on: a pass at once, then queued
        h.core.alterTable(
                t.path(), List.of(TableChange.set("table.datalake.auto-compaction", "true")));
        h.loop.runReady();
        assertThat(status(t).state()).isEqualTo(MaintenanceState.QUEUED);
        // switched off again: the queued compaction is taken back
        h.core.alterTable(
                t.path(), List.of(TableChange.set("table.datalake.auto-compaction", "false")));
        h.loop.runReady();
        assertThat(status(t).state()).isIn(MaintenanceState.IDLE, MaintenanceState.CHECKING);
        assertThat(ask("job", true, List.of()).maintenance()).isNull();
    }

    @Test
    void aFailedCommitIsNotAbortedAndTheTableRetriesWithBackoff() {
        TableInfo t = table("flaky", Map.of());
        lake.planBuckets(t.path(), List.of(0));
        tierOneRound(t, "job");
        MaintenanceGrant g = ask("job", true, List.of()).maintenance();
        lake.failNextCommit(FakeMaintenanceLake.Mode.FAIL);
        MaintenanceOutcome o = commit("job", g, 1).join();
        assertThat(o.kind()).isEqualTo(MaintenanceOutcome.Kind.FAILED);
        assertThat(lake.aborted()).as("outcome unknown: nothing deleted").isEmpty();
        assertThat(status(t).compactionFailures()).isEqualTo(1);
        assertThat(status(t).nextPassMillis())
                .isEqualTo(h.clock.currentTimeMillis() + h.config.backoffMillis(1));
        assertThat(maintenance().deadUpTo(t.tableId())).isGreaterThanOrEqualTo(g.maintenanceId());
    }

    @Test
    void aCompactionThatKeepsFailingBacksOffLongerEachTime() {
        TableInfo t = table("broken", Map.of());
        lake.planBuckets(t.path(), List.of(0));
        tierOneRound(t, "job");
        for (int failures = 1; failures <= 3; failures++) {
            MaintenanceGrant g = ask("job", true, List.of()).maintenance();
            assertThat(g).as("failure %d", failures).isNotNull();
            lake.failNextCommit(FakeMaintenanceLake.Mode.FAIL);
            commit("job", g, 1).join();
            assertThat(status(t).nextPassMillis())
                    .isEqualTo(h.clock.currentTimeMillis() + h.config.backoffMillis(failures));
            h.advanceMillis(h.config.backoffMillis(failures));
        }
        // once it commits, the table is back to its interval
        MaintenanceGrant g = ask("job", true, List.of()).maintenance();
        lake.planBuckets(t.path(), List.of());
        assertThat(commit("job", g, 1).join().kind()).isEqualTo(MaintenanceOutcome.Kind.COMMITTED);
        assertThat(status(t).compactionFailures()).isEqualTo(3);
        assertThat(status(t).state()).isEqualTo(MaintenanceState.IDLE);
    }

    @Test
    void droppingOrDisablingATableEndsItsMaintenance() {
        TableInfo t = table("gone", Map.of());
        lake.planBuckets(t.path(), List.of(0));
        tierOneRound(t, "job");
        MaintenanceGrant g = ask("job", true, List.of()).maintenance();
        h.core.alterTable(t.path(), List.of(TableChange.set("table.datalake.enabled", "false")));
        h.loop.runReady();
        assertThat(maintenance().status(t.tableId())).isEmpty();
        assertThat(commit("job", g, 1).join().kind()).isEqualTo(MaintenanceOutcome.Kind.FENCED);
        assertThat(h.tiering().tableStatus(t.tableId())).isEmpty();
    }

    @Test
    void t38_aCompactionCommitPastTheTimeoutFailsAndTheTablesNextPassWaitsUntilItReturned()
            throws Exception {
        TableInfo t = table("hung", Map.of());
        lake.planBuckets(t.path(), List.of(0));
        tierOneRound(t, "job");
        MaintenanceGrant g = ask("job", true, List.of()).maintenance();
        java.util.concurrent.CountDownLatch hanging = lake.hangNextCommit();
        int passes = lake.calls("plan").size();
        h.maintenanceIo.autoRun(false);
        CompletableFuture<MaintenanceOutcome> f = commit("job", g, 1);
        Thread io = new Thread(h.maintenanceIo::runOne, "maintenance-io");
        io.start();
        try {
            assertThat(hanging.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            // tiering of the table never waits for its maintenance (another pool, another runner)
            tierOneRound(t, "job");
            assertThat(h.tiering().tableStatus(t.tableId()).orElseThrow().totalFailures()).isZero();
            h.advance(Duration.ofMinutes(5));
            assertThat(f).isCompleted();
            assertThat(f.join().kind()).isEqualTo(MaintenanceOutcome.Kind.FAILED);
            assertThat(f.join().message()).contains("ran past tiering.maintenance.timeout");
            assertThat(status(t).compactionFailures()).isEqualTo(1);

            // the retry's pass is due at once (the last pass was before the grant), but the
            // abandoned commit may still land: the pass waits for it
            assertThat(status(t).state()).isEqualTo(MaintenanceState.CHECKING);
            assertThat(h.maintenanceIo.size()).as("nothing handed to the pool").isZero();
            assertThat(lake.calls("plan")).hasSize(passes);
        } finally {
            lake.releaseHungCommit();
            io.join(30_000);
        }
        h.loop.runReady();
        assertThat(h.maintenanceIo.size()).as("the pass starts once the commit returned").isOne();
        h.maintenanceIo.runOne();
        h.loop.runReady();
        assertThat(lake.calls("plan")).hasSize(passes + 1);
        assertThat(status(t).state()).isEqualTo(MaintenanceState.QUEUED);
    }
}
