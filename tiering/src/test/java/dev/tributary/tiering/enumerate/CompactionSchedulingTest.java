package dev.tributary.tiering.enumerate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.LakeBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.tiering.api.BucketPlan;
import dev.tributary.tiering.api.CommitOrder;
import dev.tributary.tiering.api.HeartbeatResult;
import dev.tributary.tiering.api.JobSettings;
import dev.tributary.tiering.api.MaintenanceAttempt;
import dev.tributary.tiering.api.MaintenanceGrant;
import dev.tributary.tiering.api.MaintenanceOutcome;
import dev.tributary.tiering.api.RoundPlan;
import dev.tributary.tiering.event.CompactionEvent;
import dev.tributary.tiering.event.CompactionResultEvent;
import dev.tributary.tiering.split.SplitPlanner;
import dev.tributary.tiering.testutil.Plans;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The job's side of compaction grants (T38): accepted only while asking for a table anyway, run
 * only on readers with no tiering split to take, at most the coordinator's slots at once, never
 * holding a round back, committed when every bucket ended and given up on failure, fencing, loss of
 * a reader or timeout, with the results reported for deletion.
 */
class CompactionSchedulingTest {
    private static final Duration FRESHNESS = Duration.ofMinutes(1);
    private static final TableDescriptor TABLE =
            TableDescriptor.builder(Schema.newBuilder().column("id", DataTypes.BIGINT()).build())
                    .bucketCount(4)
                    .build();

    private ManualClock clock;
    private RecordingEffects fx;
    private TieringScheduler scheduler;

    @BeforeEach
    void setUp() {
        clock = new ManualClock(1_000_000L);
        fx = new RecordingEffects();
        scheduler =
                new TieringScheduler(
                        clock,
                        new SchedulerSettings(
                                Duration.ofMillis(200), 1_000, Duration.ofSeconds(30)),
                        new SplitPlanner(1_000, new Random(7)),
                        fx);
    }

    private void register(int slots) {
        scheduler.onRegistered(
                new JobSettings(
                        "job",
                        null,
                        Duration.ofSeconds(2),
                        Duration.ofSeconds(8),
                        CommitOrder.COMPLETION,
                        FRESHNESS,
                        slots,
                        Duration.ofMinutes(5)));
    }

    private static MaintenanceGrant grant(long id, Integer... buckets) {
        return new MaintenanceGrant(
                9,
                TablePath.of("db", "t9"),
                TABLE,
                id,
                77,
                java.util.Arrays.stream(buckets).map(LakeBucket::of).toList(),
                5,
                Duration.ofMinutes(5));
    }

    private static RoundPlan plan(long tableId, int buckets) {
        List<BucketPlan> b = new java.util.ArrayList<>();
        for (int i = 0; i < buckets; i++) {
            b.add(BucketPlan.log(i, 0, 10));
        }
        return Plans.round(tableId, TablePath.of("db", "t" + tableId), 1, 1, FRESHNESS, b);
    }

    private static CompactionResultEvent ok(long id, int bucket) {
        return new CompactionResultEvent(9, id, "", bucket, new byte[] {(byte) bucket}, null);
    }

    private List<RecordingEffects.CompactionSent> started() {
        return fx.compactionEvents.stream()
                .filter(e -> e.event().kind() == CompactionEvent.Kind.START)
                .toList();
    }

    @Test
    void t38_aGrantRunsOnWaitingReadersWithinTheSlotsAndCommitsOnceEveryBucketEnded() {
        register(2);
        scheduler.onSplitRequest(0);
        scheduler.onSplitRequest(1);
        scheduler.onSplitRequest(2);
        assertThat(fx.acceptCompaction).containsExactly(true);
        scheduler.onCompactionGranted(grant(100, 3, 1, 0));
        assertThat(started()).hasSize(2);
        assertThat(started().get(0).event().bucket()).isEqualTo(3);
        assertThat(started().get(0).event().baseSnapshotId()).isEqualTo(77);
        assertThat(fx.acceptCompaction)
                .as("still asking for tables, no second grant")
                .containsExactly(true, false);

        int first = started().get(0).subtask();
        scheduler.onCompactionResult(first, ok(100, 3));
        assertThat(started()).as("the freed slot takes the last bucket").hasSize(3);
        assertThat(fx.compactionCommits).isEmpty();
        scheduler.onCompactionResult(started().get(1).subtask(), ok(100, 1));
        scheduler.onCompactionResult(started().get(2).subtask(), ok(100, 0));
        assertThat(fx.compactionCommits).hasSize(1);
        assertThat(fx.compactionCommits.get(new MaintenanceAttempt(9, 100)).results()).hasSize(3);

        scheduler.onCompactionCommitDone(
                new MaintenanceAttempt(9, 100),
                new MaintenanceOutcome(MaintenanceOutcome.Kind.COMMITTED, 5, null),
                null);
        assertThat(scheduler.compaction()).isEmpty();
        scheduler.onNoTable();
        clock.advance(Duration.ofSeconds(1));
        scheduler.onTick();
        assertThat(fx.acceptCompaction.get(fx.acceptCompaction.size() - 1)).isTrue();
    }

    @Test
    void t38_t32_bucketsOfTwoPartitionsAreSeparateUnitsOnSeparateReaders() {
        register(2);
        scheduler.onSplitRequest(0);
        scheduler.onSplitRequest(1);
        LakeBucket day1 = new LakeBucket("dt=2026-12-01", 2);
        LakeBucket day2 = new LakeBucket("dt=2026-12-02", 2);
        scheduler.onCompactionGranted(
                new MaintenanceGrant(
                        9,
                        TablePath.of("db", "t9"),
                        TABLE,
                        100,
                        77,
                        List.of(day1, day2),
                        5,
                        Duration.ofMinutes(5)));
        assertThat(started()).extracting(s -> s.event().unit()).containsExactly(day1, day2);

        // a result names its unit: bucket 2 of the other partition does not end this reader's
        int first = started().get(0).subtask();
        scheduler.onCompactionResult(
                first, new CompactionResultEvent(9, 100, day2.partition(), 2, new byte[1], null));
        scheduler.onCompactionResult(
                started().get(1).subtask(),
                new CompactionResultEvent(9, 100, day2.partition(), 2, new byte[1], null));
        assertThat(fx.compactionCommits).as("day 1 is still compacting").isEmpty();
        scheduler.onCompactionResult(
                first, new CompactionResultEvent(9, 100, day1.partition(), 2, new byte[1], null));
        assertThat(fx.compactionCommits.get(new MaintenanceAttempt(9, 100)).results()).hasSize(2);
    }

    @Test
    void t38_aRoundTakesEveryReaderAtOnceEvenWhileTheyCompact() {
        register(1);
        scheduler.onSplitRequest(0);
        scheduler.onSplitRequest(1);
        scheduler.onCompactionGranted(grant(100, 0, 1));
        assertThat(started()).hasSize(1);
        int compacting = started().get(0).subtask();

        scheduler.onTableGranted(plan(1, 2));
        assertThat(fx.assignments)
                .as("both readers get a split at once, the compacting one included")
                .extracting(RecordingEffects.Assignment::subtask)
                .containsExactlyInAnyOrder(0, 1);
        assertThat(fx.assignments.get(0).subtask())
                .as("the reader that does not compact first")
                .isNotEqualTo(compacting);
        // no more compaction starts while tiering splits wait
        scheduler.onCompactionResult(compacting, ok(100, 0));
        assertThat(started()).hasSize(1);
    }

    @Test
    void t38_noCompactionStartsWhileTieringSplitsAreQueued() {
        register(4);
        scheduler.onSplitRequest(0);
        scheduler.onCompactionGranted(grant(100, 0, 1, 2, 3));
        assertThat(started()).hasSize(1);
        scheduler.onTableGranted(plan(1, 3));
        assertThat(scheduler.queuedSplits()).isEqualTo(2);
        scheduler.onSplitRequest(1);
        scheduler.onSplitRequest(2);
        assertThat(started()).as("reader 1 and 2 took tiering splits").hasSize(1);
        scheduler.onSplitRequest(3);
        assertThat(started()).as("idle reader 3, nothing queued: compaction").hasSize(2);
        assertThat(started().get(1).subtask()).isEqualTo(3);
    }

    @Test
    void aFailedBucketFencingOrALostReaderGiveTheGrantUpWithItsResults() {
        register(2);
        scheduler.onSplitRequest(0);
        scheduler.onSplitRequest(1);
        scheduler.onCompactionGranted(grant(100, 0, 1, 2));
        scheduler.onCompactionResult(started().get(0).subtask(), ok(100, 0));
        int other = started().get(1).subtask();
        scheduler.onCompactionResult(
                other,
                new CompactionResultEvent(9, 100, "", 1, null, "StorageException: disk full"));
        assertThat(fx.compactionFailures).hasSize(1);
        assertThat(fx.compactionFailures.get(0).discarded()).hasSize(1);
        assertThat(fx.compactionFailures.get(0).reason()).contains("disk full");
        assertThat(fx.compactionEvents)
                .filteredOn(e -> e.event().kind() == CompactionEvent.Kind.CANCEL)
                .hasSize(1);
        assertThat(scheduler.compaction()).isEmpty();
        // a late result of the abandoned grant is reported for deletion
        int n = fx.compactionFailures.size();
        scheduler.onCompactionResult(started().get(2).subtask(), ok(100, 2));
        assertThat(fx.compactionFailures).hasSize(n + 1);

        // fenced by the coordinator
        scheduler.onNoTable();
        clock.advance(Duration.ofSeconds(1));
        scheduler.onTick();
        scheduler.onCompactionGranted(grant(101, 0));
        scheduler.onHeartbeatDone(HeartbeatResult.ok());
        clock.advance(Duration.ofSeconds(2));
        scheduler.onTick();
        assertThat(fx.compactionHeartbeats.get(fx.compactionHeartbeats.size() - 1))
                .containsExactly(new MaintenanceAttempt(9, 101));
        scheduler.onHeartbeatDone(
                new HeartbeatResult(
                        List.of(), List.of(), null, List.of(new MaintenanceAttempt(9, 101)), null));
        assertThat(scheduler.compaction()).isEmpty();
        assertThat(fx.compactionFailures.get(fx.compactionFailures.size() - 1).reason())
                .contains("fenced");

        // a lost reader
        scheduler.onNoTable();
        clock.advance(Duration.ofSeconds(1));
        scheduler.onTick();
        scheduler.onCompactionGranted(grant(102, 0));
        int reader = started().get(started().size() - 1).subtask();
        scheduler.onReaderLost(reader);
        assertThat(scheduler.compaction()).isEmpty();

        // past the grant's timeout
        scheduler.onSplitRequest(reader);
        clock.advance(Duration.ofSeconds(1));
        scheduler.onTick();
        scheduler.onCompactionGranted(grant(103, 0));
        clock.advance(Duration.ofMinutes(6));
        scheduler.onTick();
        assertThat(scheduler.compaction()).isEmpty();
        assertThat(fx.compactionFailures.get(fx.compactionFailures.size() - 1).reason())
                .contains("timeout");
    }

    @Test
    void aJobWithoutSlotsNeverAsksForCompaction() {
        register(0);
        scheduler.onSplitRequest(0);
        assertThat(fx.acceptCompaction).containsExactly(false);
    }
}
