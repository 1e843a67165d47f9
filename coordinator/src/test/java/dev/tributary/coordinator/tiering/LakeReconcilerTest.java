package dev.tributary.coordinator.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.FakeLake;
import dev.tributary.coordinator.ManualExecutor;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.spi.LakeSnapshotRecord;
import dev.tributary.coordinator.status.RoundSummary;
import dev.tributary.coordinator.store.TieringRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The reconciliation step on its own: where the lake is read, and what is adopted (T21). */
class LakeReconcilerTest {
    private static final long TABLE_ID = 7;
    private static final long NOW = 5_000_000L;

    private final ManualClock clock = new ManualClock(NOW);
    private final ManualExecutor io = new ManualExecutor();
    private final ManualExecutor loop = new ManualExecutor();
    private final FakeLake lake = new FakeLake();
    private final LakeReconciler reconciler = new LakeReconciler(lake, clock, loop, io);
    private final TableInfo table = table(TABLE_ID);

    /** Recorded: round 3 of epoch 10 in snapshot 4, buckets 0 and 1 tiered to 100 and 50. */
    private final TieringRecord known =
            TieringRecord.initial(TABLE_ID, 1_000)
                    .afterCommit(Map.of(0, 100L, 1, 50L), 2_000, 4, 10, 3, false, null);

    @Test
    @DisplayName("T21 the lake is read on the I/O pool and the answer comes back on the loop")
    void readRunsOnTheIoPoolAndAnswersOnTheLoop() {
        lake.append(TABLE_ID, props(TABLE_ID, 11, 4, Map.of(0, 120L), 3_000));
        List<Optional<LakeSnapshotRecord>> read = new ArrayList<>();
        List<Throwable> failed = new ArrayList<>();

        reconciler.readLatest(table, read::add, failed::add);
        assertThat(io.size()).isEqualTo(1);
        assertThat(loop.size()).isZero();

        io.runOne();
        assertThat(read).as("nothing reaches the manager from the I/O pool").isEmpty();
        assertThat(loop.size()).isEqualTo(1);

        loop.runOne();
        assertThat(failed).isEmpty();
        assertThat(read).hasSize(1);
        assertThat(read.get(0)).get().extracting(LakeSnapshotRecord::snapshotId).isEqualTo(1L);
    }

    @Test
    @DisplayName("T21 a failed lake read reaches only the failure callback, on the loop")
    void aFailedReadAnswersOnTheLoopWithTheCause() {
        lake.failReads(true);
        List<Optional<LakeSnapshotRecord>> read = new ArrayList<>();
        List<Throwable> failed = new ArrayList<>();

        reconciler.readLatest(table, read::add, failed::add);
        io.runOne();
        assertThat(failed).isEmpty();
        loop.runOne();

        assertThat(read).isEmpty();
        assertThat(failed)
                .singleElement()
                .satisfies(e -> assertThat(e).hasMessageContaining("injected"));
    }

    @Test
    @DisplayName("T21 a snapshot of a newer epoch the coordinator never recorded is adopted whole")
    void anUnrecordedSnapshotOfANewerEpochIsAdopted() {
        Optional<LakeSnapshotRecord> found =
                snapshot(9, props(TABLE_ID, 11, 4, Map.of(0, 130L, 1, 60L, 2, 5L), 3_500));

        TieringRecord adopted = reconciler.adoption(table, known, found).orElseThrow();

        assertThat(adopted.tableId()).isEqualTo(TABLE_ID);
        assertThat(adopted.tieredOffsets())
                .containsExactly(entry(0, 130L), entry(1, 60L), entry(2, 5L));
        assertThat(adopted.lakeSnapshotId()).isEqualTo(9);
        assertThat(adopted.epoch()).isEqualTo(11);
        assertThat(adopted.roundId()).isEqualTo(4);
        assertThat(adopted.lastTieredTimeMillis()).isEqualTo(3_500);
        assertThat(adopted.enabledSinceMillis()).isEqualTo(known.enabledSinceMillis());
        assertThat(adopted.continueImmediately()).isFalse();
        assertThat(adopted.lastRound()).isEqualTo(RoundSummary.adopted(11, 4, 3_500, 9));
    }

    @Test
    @DisplayName("T21 buckets the adopted snapshot does not name keep their recorded offsets")
    void bucketsMissingFromTheSnapshotKeepTheirOffsets() {
        TieringRecord adopted =
                reconciler
                        .adoption(
                                table,
                                known,
                                snapshot(9, props(TABLE_ID, 11, 4, Map.of(0, 130L), 3_500)))
                        .orElseThrow();
        assertThat(adopted.tieredOffsets()).containsExactly(entry(0, 130L), entry(1, 50L));
    }

    @Test
    @DisplayName("T21 a snapshot without a commit time is adopted as committed now")
    void aSnapshotWithoutCommitTimeIsAdoptedAsOfNow() {
        Map<String, String> p = new HashMap<>(props(TABLE_ID, 11, 4, Map.of(0, 130L), 0));
        TieringRecord zero = reconciler.adoption(table, known, snapshot(9, p)).orElseThrow();
        p.remove(TieringSnapshotProperties.COMMITTED_AT);
        clock.advanceMillis(250);
        TieringRecord missing = reconciler.adoption(table, known, snapshot(9, p)).orElseThrow();

        assertThat(zero.lastTieredTimeMillis()).isEqualTo(NOW);
        assertThat(missing.lastTieredTimeMillis()).isEqualTo(NOW + 250);
        assertThat(missing.lastRound().startMillis()).isEqualTo(NOW + 250);
    }

    @Test
    @DisplayName("T21 nothing is adopted: no snapshot, foreign, known, older or garbled ones")
    void nothingIsAdoptedWhenTheLakeHasNothingNew() {
        Map<Integer, Long> offsets = Map.of(0, 999L);
        assertThat(reconciler.adoption(table, known, Optional.empty())).isEmpty();
        assertThat(reconciler.adoption(table, known, snapshot(9, Map.of("other", "x"))))
                .as("not written by tiering")
                .isEmpty();
        assertThat(
                        reconciler.adoption(
                                table, known, snapshot(9, props(TABLE_ID + 1, 11, 4, offsets, 1))))
                .as("another table's snapshot")
                .isEmpty();
        assertThat(
                        reconciler.adoption(
                                table, known, snapshot(4, props(TABLE_ID, 11, 4, offsets, 1))))
                .as("the snapshot the record already names")
                .isEmpty();
        assertThat(
                        reconciler.adoption(
                                table, known, snapshot(9, props(TABLE_ID, 10, 4, offsets, 1))))
                .as("the recorded epoch: the coordinator moved past it")
                .isEmpty();
        assertThat(
                        reconciler.adoption(
                                table, known, snapshot(9, props(TABLE_ID, 3, 9, offsets, 1))))
                .as("an older epoch")
                .isEmpty();
        Map<String, String> garbled = new HashMap<>(props(TABLE_ID, 11, 4, offsets, 1));
        garbled.put(TieringSnapshotProperties.OFFSETS, "0=x");
        assertThat(reconciler.adoption(table, known, snapshot(9, garbled))).as("garbled").isEmpty();
    }

    private static Map<String, String> props(
            long tableId, long epoch, long round, Map<Integer, Long> offsets, long at) {
        return new TieringSnapshotProperties(tableId, epoch, round, new TreeMap<>(offsets), at)
                .toMap();
    }

    private static Optional<LakeSnapshotRecord> snapshot(long id, Map<String, String> props) {
        return Optional.of(new LakeSnapshotRecord(id, props));
    }

    private static Map.Entry<Integer, Long> entry(int bucket, long offset) {
        return Map.entry(bucket, offset);
    }

    static TableInfo table(long id) {
        Schema schema =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column("v", DataTypes.STRING())
                        .build();
        TableDescriptor d =
                TableDescriptor.builder(schema)
                        .bucketCount(3)
                        .property("table.datalake.enabled", "true")
                        .build();
        return TableInfo.create(id, TablePath.of("db", "t" + id), d, 1_000);
    }
}
