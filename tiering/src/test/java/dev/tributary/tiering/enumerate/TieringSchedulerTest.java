package dev.tributary.tiering.enumerate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.ManualClock;
import dev.tributary.tiering.api.Attempt;
import dev.tributary.tiering.api.BucketPlan;
import dev.tributary.tiering.api.CommitOrder;
import dev.tributary.tiering.api.CommitOutcome;
import dev.tributary.tiering.api.HeartbeatResult;
import dev.tributary.tiering.api.JobSettings;
import dev.tributary.tiering.api.RoundPlan;
import dev.tributary.tiering.api.TableAck;
import dev.tributary.tiering.event.RoundControlEvent;
import dev.tributary.tiering.event.SplitResultEvent;
import dev.tributary.tiering.split.SplitPlanner;
import dev.tributary.tiering.split.TieringSplit;
import dev.tributary.tiering.testutil.Plans;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TieringSchedulerTest {
    private static final Duration FRESHNESS = Duration.ofMinutes(1);
    private final long seed = new Random().nextLong();
    private ManualClock clock;
    private RecordingEffects fx;
    private TieringScheduler scheduler;

    @BeforeEach
    void setUp() {
        clock = new ManualClock(1_000_000L);
        fx = new RecordingEffects();
        scheduler = create(1_000);
        scheduler.onRegistered(SETTINGS);
    }

    /** What the coordinator hands the job at registration. */
    private static final JobSettings SETTINGS =
            new JobSettings(
                    "job",
                    null,
                    Duration.ofSeconds(2),
                    Duration.ofSeconds(8),
                    CommitOrder.COMPLETION,
                    FRESHNESS,
                    0,
                    FRESHNESS);

    private TieringScheduler create(long maxRecords) {
        return new TieringScheduler(
                clock,
                new SchedulerSettings(Duration.ofMillis(200), maxRecords, Duration.ofSeconds(30)),
                new SplitPlanner(maxRecords, new Random(seed)),
                fx);
    }

    private static RoundPlan plan(long tableId, long epoch, long round, int buckets, long records) {
        List<BucketPlan> b = new ArrayList<>();
        for (int i = 0; i < buckets; i++) {
            b.add(BucketPlan.log(i, 0, records));
        }
        return Plans.round(tableId, TablePath.of("db", "t" + tableId), epoch, round, FRESHNESS, b);
    }

    private static SplitResultEvent done(TieringSplit s, long reached) {
        return new SplitResultEvent(
                s.splitId(),
                s.tableId(),
                s.epoch(),
                s.roundId(),
                s.bucket(),
                reached,
                ("file-" + s.splitId()).getBytes(),
                reached - s.startOffset(),
                1,
                null);
    }

    private static SplitResultEvent failed(TieringSplit s) {
        return new SplitResultEvent(
                s.splitId(),
                s.tableId(),
                s.epoch(),
                s.roundId(),
                s.bucket(),
                s.startOffset(),
                null,
                0,
                0,
                "StorageException: disk full");
    }

    @Test
    void t3_idleReaderTriggersATableRequestAtOnceWithoutWaitingForATick() {
        assertThat(fx.tableRequests).isZero();
        scheduler.onSplitRequest(0);
        assertThat(fx.tableRequests).isEqualTo(1);
        // a second idle reader does not send a second concurrent request
        scheduler.onSplitRequest(1);
        assertThat(fx.tableRequests).isEqualTo(1);
        scheduler.onTableGranted(plan(1, 1, 1, 2, 10));
        assertThat(fx.assignments)
                .extracting(RecordingEffects.Assignment::subtask)
                .containsExactly(0, 1);
    }

    @Test
    void t3_eachReaderHoldsOneSplitAndTakesTheNextWhenDone() {
        scheduler.onSplitRequest(0);
        scheduler.onSplitRequest(1);
        scheduler.onTableGranted(plan(1, 1, 1, 5, 10));
        assertThat(fx.assignments).hasSize(2);
        assertThat(scheduler.queuedSplits()).isEqualTo(3);
        TieringSplit first = fx.splitsOf(0).get(0);
        scheduler.onSplitResult(0, done(first, 10));
        assertThat(fx.assignments).hasSize(2); // no request yet: one split per reader
        scheduler.onSplitRequest(0);
        assertThat(fx.assignments).hasSize(3);
        assertThat(fx.last().subtask()).isEqualTo(0);
        assertThat(fx.tableRequests).as("splits still queued: no new table").isEqualTo(1);
    }

    @Test
    void t3_spareReadersPipelineIntoTheNextTableWhileOthersFinish() {
        scheduler.onSplitRequest(0);
        scheduler.onSplitRequest(1);
        scheduler.onSplitRequest(2);
        scheduler.onTableGranted(plan(1, 1, 1, 1, 10)); // one split, two readers spare
        assertThat(fx.tableRequests).isEqualTo(2);
        scheduler.onTableGranted(plan(2, 1, 1, 2, 10));
        assertThat(fx.splitsOf(1)).extracting(TieringSplit::tableId).containsExactly(2L);
        assertThat(fx.splitsOf(2)).extracting(TieringSplit::tableId).containsExactly(2L);
        assertThat(scheduler.inFlight()).containsExactly(new Attempt(1, 1), new Attempt(2, 1));
    }

    @Test
    void t27_tableWithNothingNewFinishesAtOnceAndTheNextIsRequested() {
        scheduler.onSplitRequest(0);
        RoundPlan empty =
                Plans.round(
                        5,
                        TablePath.of("db", "idle"),
                        3,
                        9,
                        FRESHNESS,
                        List.of(BucketPlan.log(0, 40, 40)));
        scheduler.onTableGranted(empty);
        assertThat(fx.assignments).isEmpty();
        assertThat(fx.commits).containsKey(new Attempt(5, 3));
        assertThat(fx.commits.get(new Attempt(5, 3)).isEmpty()).isTrue();
        assertThat(fx.tableRequests).as("reader still idle: ask again at once").isEqualTo(2);
    }

    @Test
    void noTableAnswerIsRetriedAfterTheMinimumIntervalOnTick() {
        scheduler.onSplitRequest(0);
        scheduler.onNoTable();
        assertThat(fx.tableRequests).isEqualTo(1);
        clock.advanceMillis(100);
        scheduler.onTick();
        assertThat(fx.tableRequests).isEqualTo(1);
        clock.advanceMillis(100);
        scheduler.onTick();
        assertThat(fx.tableRequests).isEqualTo(2);
    }

    @Test
    void t4_roundCommitsOnceAfterItsLastSplit() {
        scheduler.onSplitRequest(0);
        scheduler.onTableGranted(plan(1, 1, 1, 3, 10));
        for (int i = 0; i < 3; i++) {
            assertThat(fx.commits).isEmpty();
            TieringSplit s = fx.last().split();
            scheduler.onSplitResult(0, done(s, 10));
            scheduler.onSplitRequest(0);
        }
        assertThat(fx.commits).hasSize(1);
        assertThat(fx.commits.get(new Attempt(1, 1)).bucketEndOffsets())
                .containsOnlyKeys(
                        PartitionBucket.of(0), PartitionBucket.of(1), PartitionBucket.of(2))
                .containsValues(10L);
        scheduler.onCommitDone(new Attempt(1, 1), CommitOutcome.COMMITTED, null);
        assertThat(scheduler.inFlight()).isEmpty();
    }

    @Test
    void t13_roundRunningForItsFreshnessSkipsUnstartedSplitsAndStopsStartedLogSplits() {
        scheduler.onSplitRequest(0);
        scheduler.onTableGranted(plan(1, 1, 1, 4, 10));
        TieringSplit running = fx.last().split();
        clock.advance(FRESHNESS.minusMillis(1));
        scheduler.onTick();
        assertThat(fx.controls).isEmpty();
        clock.advanceMillis(1);
        scheduler.onTick();
        assertThat(fx.controls)
                .containsExactly(
                        new RecordingEffects.Control(
                                0,
                                new RoundControlEvent(
                                        RoundControlEvent.Kind.FORCE_FINISH, 1, 1, 1)));
        assertThat(scheduler.queuedSplits()).isZero();
        assertThat(fx.commits).isEmpty();
        scheduler.onSplitResult(0, done(running, 4));
        var commit = fx.commits.get(new Attempt(1, 1));
        assertThat(commit.forceFinished()).isTrue();
        assertThat(commit.bucketEndOffsets())
                .containsExactly(java.util.Map.entry(PartitionBucket.of(running.bucket()), 4L));
    }

    @Test
    void t13_t22_logSplitThatNeverStopsAfterForceFinishFailsTheRound() {
        scheduler.onSplitRequest(0);
        scheduler.onTableGranted(plan(1, 1, 1, 1, 10));
        clock.advance(FRESHNESS);
        scheduler.onTick();
        assertThat(fx.failures).isEmpty();
        clock.advance(FRESHNESS.minusMillis(1));
        scheduler.onTick();
        assertThat(fx.failures).isEmpty();
        clock.advanceMillis(1);
        scheduler.onTick();
        assertThat(fx.failures).containsOnlyKeys(new Attempt(1, 1));
        assertThat(scheduler.inFlight()).isEmpty();
    }

    @Test
    void t13_aShortFreshnessTableGetsTheStuckAfterFloorBeforeItsRoundFails() {
        scheduler.onSplitRequest(0);
        Duration freshness = Duration.ofSeconds(2);
        scheduler.onTableGranted(
                Plans.round(
                        1,
                        TablePath.of("db", "t1"),
                        1,
                        1,
                        freshness,
                        List.of(BucketPlan.log(0, 0, 10))));
        clock.advance(freshness);
        scheduler.onTick(); // force-finished; the log split is still closing its files
        clock.advance(Duration.ofSeconds(30).minusMillis(1));
        scheduler.onTick();
        assertThat(fx.failures).isEmpty();
        clock.advanceMillis(1);
        scheduler.onTick();
        assertThat(fx.failures).containsOnlyKeys(new Attempt(1, 1));
    }

    @Test
    void t14_snapshotSplitIsNeverFailedForRunningLong() {
        scheduler.onSplitRequest(0);
        scheduler.onTableGranted(
                Plans.round(
                        1,
                        TablePath.of("db", "pk"),
                        1,
                        1,
                        FRESHNESS,
                        true,
                        List.of(BucketPlan.snapshot(0, 5, 300))));
        clock.advance(FRESHNESS.multipliedBy(5));
        scheduler.onTick();
        clock.advance(FRESHNESS.multipliedBy(5));
        scheduler.onTick();
        assertThat(fx.failures).isEmpty();
        assertThat(scheduler.inFlight()).hasSize(1);
    }

    @Test
    void t14_startedSnapshotSplitIsWaitedForAfterForceFinish() {
        scheduler.onSplitRequest(0);
        RoundPlan p =
                Plans.round(
                        1,
                        TablePath.of("db", "pk"),
                        1,
                        1,
                        FRESHNESS,
                        List.of(BucketPlan.snapshot(0, 5, 300)));
        scheduler.onTableGranted(p);
        TieringSplit snapshot = fx.last().split();
        clock.advance(FRESHNESS);
        scheduler.onTick();
        assertThat(fx.commits).as("the snapshot split is still running").isEmpty();
        scheduler.onSplitResult(0, done(snapshot, 300));
        assertThat(fx.commits.get(new Attempt(1, 1)).bucketEndOffsets())
                .containsExactly(java.util.Map.entry(PartitionBucket.of(0), 300L));
    }

    @Test
    void t13_coordinatorRequestedForceFinishIsApplied() {
        scheduler.onSplitRequest(0);
        scheduler.onTableGranted(plan(1, 1, 1, 2, 10));
        scheduler.onHeartbeatDone(new HeartbeatResult(List.of(), List.of(new Attempt(1, 1)), null));
        assertThat(fx.controls).hasSize(1);
        assertThat(scheduler.isForceFinished(1)).contains(true);
    }

    @Test
    void t20_resultsOfStaleRoundsAreDroppedNotFatal() {
        scheduler.onSplitRequest(0);
        scheduler.onSplitRequest(1);
        scheduler.onTableGranted(plan(1, 4, 2, 2, 10));
        TieringSplit s = fx.splitsOf(0).get(0);
        // same table, older epoch, and an unknown table
        scheduler.onSplitResult(
                0, done(TieringSplit.log(1, s.tablePath(), 3, 2, s.bucket(), 0, 10), 10));
        scheduler.onSplitResult(0, done(TieringSplit.log(99, s.tablePath(), 4, 2, 0, 0, 10), 10));
        assertThat(scheduler.droppedResults()).isEqualTo(2);
        assertThat(fx.commits).isEmpty();
        // the current round is unaffected
        scheduler.onSplitResult(0, done(s, 10));
        scheduler.onSplitResult(1, done(fx.splitsOf(1).get(0), 10));
        assertThat(fx.commits).containsKey(new Attempt(1, 4));
        // a late duplicate after the round ended is dropped too
        scheduler.onSplitResult(0, done(s, 10));
        assertThat(scheduler.droppedResults()).isEqualTo(3);
    }

    @Test
    void t22_failedSplitFailsOnlyItsTableAndAbortsItsOtherSplits() {
        for (int r = 0; r < 4; r++) {
            scheduler.onSplitRequest(r);
        }
        scheduler.onTableGranted(plan(1, 1, 1, 2, 10));
        scheduler.onTableGranted(plan(2, 1, 1, 2, 10));
        TieringSplit bad =
                fx.assignments.stream()
                        .filter(a -> a.split().tableId() == 1)
                        .findFirst()
                        .get()
                        .split();
        int badReader =
                fx.assignments.stream().filter(a -> a.split() == bad).findFirst().get().subtask();
        scheduler.onSplitResult(badReader, failed(bad));
        assertThat(fx.failures).containsOnlyKeys(new Attempt(1, 1));
        assertThat(fx.controls)
                .extracting(c -> c.event().kind())
                .containsExactly(RoundControlEvent.Kind.ABORT);
        // table 2 keeps going and commits
        for (var a : new ArrayList<>(fx.assignments)) {
            if (a.split().tableId() == 2) {
                scheduler.onSplitResult(a.subtask(), done(a.split(), 10));
            }
        }
        assertThat(fx.commits).containsOnlyKeys(new Attempt(2, 1));
        assertThat(scheduler.inFlight()).containsExactly(new Attempt(2, 1));
    }

    @Test
    void t22_commitErrorIsReportedAsFailedRound() {
        scheduler.onSplitRequest(0);
        scheduler.onTableGranted(plan(1, 1, 1, 1, 10));
        scheduler.onSplitResult(0, done(fx.last().split(), 10));
        scheduler.onCommitDone(new Attempt(1, 1), null, new RuntimeException("lake unavailable"));
        assertThat(fx.failures).containsKey(new Attempt(1, 1));
        assertThat(scheduler.inFlight()).isEmpty();
    }

    @Test
    void t22_lostReaderFailsOnlyTheRoundsItWorkedOn() {
        scheduler.onSplitRequest(0);
        scheduler.onTableGranted(plan(1, 1, 1, 1, 10));
        scheduler.onSplitRequest(1);
        scheduler.onTableGranted(plan(2, 1, 1, 1, 10));
        scheduler.onReaderLost(0);
        assertThat(fx.failures).containsOnlyKeys(new Attempt(1, 1));
        assertThat(scheduler.inFlight()).containsExactly(new Attempt(2, 1));
    }

    @Test
    void t24_commitsOfDifferentTablesAreStartedWithoutWaitingForEachOther() {
        scheduler.onSplitRequest(0);
        scheduler.onSplitRequest(1);
        scheduler.onTableGranted(plan(1, 1, 1, 1, 10));
        scheduler.onTableGranted(plan(2, 1, 1, 1, 10));
        scheduler.onSplitResult(0, done(fx.splitsOf(0).get(0), 10));
        scheduler.onSplitResult(1, done(fx.splitsOf(1).get(0), 10));
        assertThat(fx.commits).hasSize(2); // both started, neither finished
    }

    @Test
    void t25_eachRoundCommitsAsSoonAsItCompletesTheCoordinatorOwnsTheOrder() {
        scheduler.onSplitRequest(0);
        scheduler.onSplitRequest(1);
        scheduler.onTableGranted(plan(1, 1, 1, 1, 10));
        scheduler.onTableGranted(plan(2, 1, 1, 1, 10));
        scheduler.onSplitResult(1, done(fx.splitsOf(1).get(0), 10));
        assertThat(fx.commits.keySet()).containsExactly(new Attempt(2, 1));
        scheduler.onSplitResult(0, done(fx.splitsOf(0).get(0), 10));
        // completion order here; with tiering.commit.order=assignment the coordinator holds 2's
        assertThat(fx.commits.keySet()).containsExactly(new Attempt(2, 1), new Attempt(1, 1));
    }

    @Test
    void t19_t20_fencedCommitEndsTheRoundWithoutAFailureReport() {
        scheduler.onSplitRequest(0);
        scheduler.onTableGranted(plan(1, 1, 1, 1, 10));
        scheduler.onSplitResult(0, done(fx.last().split(), 10));
        scheduler.onCommitDone(new Attempt(1, 1), CommitOutcome.FENCED, null);
        assertThat(fx.failures).isEmpty();
        assertThat(scheduler.inFlight()).isEmpty();
        // the next attempt of the same table works normally
        scheduler.onSplitRequest(0);
        scheduler.onTableGranted(plan(1, 2, 2, 1, 10));
        scheduler.onSplitResult(0, done(fx.last().split(), 10));
        assertThat(fx.commits).containsKey(new Attempt(1, 2));
    }

    @Test
    void t18_heartbeatsListInFlightAttemptsEveryInterval() {
        assertThat(fx.heartbeats).hasSize(1);
        scheduler.onHeartbeatDone(HeartbeatResult.ok());
        scheduler.onSplitRequest(0);
        scheduler.onTableGranted(plan(1, 6, 1, 1, 10));
        clock.advanceMillis(1_999);
        scheduler.onTick();
        assertThat(fx.heartbeats).hasSize(1);
        clock.advanceMillis(1);
        scheduler.onTick();
        assertThat(fx.heartbeats).hasSize(2);
        assertThat(fx.heartbeats.get(1)).containsExactly(new Attempt(1, 6));
    }

    @Test
    void t23_aStaleAttemptIsAbandonedAndTheFilesOfItsEndedSplitsHandedBack() {
        scheduler.onSplitRequest(0);
        scheduler.onTableGranted(plan(1, 6, 1, 2, 10));
        TieringSplit first = fx.last().split();
        scheduler.onSplitResult(0, done(first, 10));
        scheduler.onHeartbeatDone(
                new HeartbeatResult(
                        List.of(new TableAck(1, 6, TableAck.Status.FENCED, "stale")),
                        List.of(),
                        null));
        assertThat(scheduler.inFlight()).isEmpty();
        assertThat(fx.failures).containsOnlyKeys(new Attempt(1, 6));
        assertThat(fx.discarded.get(new Attempt(1, 6)))
                .as("the coordinator deletes what the abandoned attempt wrote")
                .singleElement()
                .satisfies(b -> assertThat(new String(b)).isEqualTo("file-" + first.splitId()));
        assertThat(scheduler.queuedSplits()).as("its queued split is dropped").isZero();
    }

    @Test
    void t23_aFailedRoundHandsTheFilesOfItsFinishedSplitsBack() {
        scheduler.onSplitRequest(0);
        scheduler.onSplitRequest(1);
        scheduler.onTableGranted(plan(1, 1, 1, 2, 10));
        scheduler.onSplitResult(0, done(fx.splitsOf(0).get(0), 10));
        scheduler.onSplitResult(1, failed(fx.splitsOf(1).get(0)));
        assertThat(fx.failures.get(new Attempt(1, 1))).contains("disk full");
        assertThat(fx.discarded.get(new Attempt(1, 1))).hasSize(1);
    }

    @Test
    void t18_heartbeatIntervalIsTheOneTheCoordinatorHandedOut() {
        fx = new RecordingEffects();
        scheduler = create(1_000);
        scheduler.onTick();
        assertThat(fx.heartbeats).as("no heartbeat before registration").isEmpty();
        scheduler.onRegistered(
                new JobSettings(
                        "job",
                        null,
                        Duration.ofMillis(500),
                        Duration.ofSeconds(3),
                        CommitOrder.ASSIGNMENT,
                        FRESHNESS,
                        0,
                        FRESHNESS));
        assertThat(fx.heartbeats).hasSize(1);
        scheduler.onHeartbeatDone(HeartbeatResult.ok());
        clock.advanceMillis(500);
        scheduler.onTick();
        assertThat(fx.heartbeats).hasSize(2);
    }
}
