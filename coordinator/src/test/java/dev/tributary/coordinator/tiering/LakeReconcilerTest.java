package dev.tributary.coordinator.tiering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.FakeLake;
import dev.tributary.coordinator.ManualExecutor;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.status.RoundSummary;
import dev.tributary.coordinator.store.TieringRecord;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import java.util.ArrayList;
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

    /** The first epoch this coordinator never issued. */
    private static final long CEILING = 2_000_000_000L;

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
        lake.append(props(TABLE_ID, 11, 4, Map.of(0, 120L), 3_000));
        List<Optional<LakeSnapshot>> read = new ArrayList<>();
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
        assertThat(read.get(0)).get().extracting(LakeSnapshot::snapshotId).isEqualTo(1L);
    }

    @Test
    @DisplayName(
            "T21 a failed or malformed lake read reaches only the failure callback, on the loop")
    void aFailedReadAnswersOnTheLoopWithTheCause() {
        lake.corruptProperties(true);
        List<Optional<LakeSnapshot>> read = new ArrayList<>();
        List<Throwable> failed = new ArrayList<>();

        reconciler.readLatest(table, read::add, failed::add);
        io.runOne();
        assertThat(failed).isEmpty();
        loop.runOne();

        assertThat(read).isEmpty();
        assertThat(failed)
                .singleElement()
                .satisfies(e -> assertThat(e).isInstanceOf(CorruptDataException.class));
    }

    @Test
    @DisplayName("T21 a snapshot of a newer epoch the coordinator never recorded is adopted whole")
    void anUnrecordedSnapshotOfANewerEpochIsAdopted() {
        Optional<LakeSnapshot> found =
                snapshot(9, props(TABLE_ID, 11, 4, Map.of(0, 130L, 1, 60L, 2, 5L), 3_500));

        TieringRecord adopted = adoption(found).orElseThrow();

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
    @DisplayName("T21 a snapshot without a commit time is adopted as committed now")
    void aSnapshotWithoutCommitTimeIsAdoptedAsOfNow() {
        clock.advanceMillis(250);
        TieringRecord adopted =
                adoption(snapshot(9, props(TABLE_ID, 11, 4, Map.of(0, 130L, 1, 50L), -1)))
                        .orElseThrow();

        assertThat(adopted.lastTieredTimeMillis()).isEqualTo(NOW + 250);
        assertThat(adopted.lastRound().startMillis()).isEqualTo(NOW + 250);
    }

    @Test
    @DisplayName("T21 nothing is adopted without a snapshot, or for the round the record names")
    void nothingIsAdoptedWhenTheLakeHasNothingNew() {
        assertThat(adoption(Optional.empty())).isEmpty();
        assertThat(adoption(snapshot(4, props(TABLE_ID, 10, 3, Map.of(0, 100L, 1, 50L), 2_000))))
                .as("the round the record already names")
                .isEmpty();
    }

    @Test
    @DisplayName("T21 a lake behind the record stops the table instead of re-tiering silently")
    void aLakeBehindTheRecordIsATypedError() {
        assertThatThrownBy(
                        () -> adoption(snapshot(2, props(TABLE_ID, 9, 7, Map.of(0, 90L), 1_500))))
                .as("an older epoch: the lake table was rolled back")
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("rolled back");
        assertThatThrownBy(
                        () ->
                                adoption(
                                        snapshot(
                                                9,
                                                props(
                                                        TABLE_ID,
                                                        11,
                                                        4,
                                                        Map.of(0, 130L, 1, 40L),
                                                        3_500))))
                .as("a newer epoch with a bucket behind the record")
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("bucket 1");
        assertThatThrownBy(
                        () -> adoption(snapshot(9, props(TABLE_ID, 11, 4, Map.of(0, 130L), 3_500))))
                .as("a newer epoch that lost a bucket the record has")
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("bucket 1");
    }

    @Test
    @DisplayName("T21 a snapshot another cluster wrote under the same table id is refused")
    void anotherClustersSnapshotIsATypedError() {
        assertThatThrownBy(
                        () ->
                                adoption(
                                        snapshot(
                                                9,
                                                props(
                                                        TABLE_ID,
                                                        CEILING,
                                                        4,
                                                        Map.of(0, 130L, 1, 60L),
                                                        3_500))))
                .as("an epoch this coordinator never issued")
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("another Tributary cluster");
    }

    private Optional<TieringRecord> adoption(Optional<LakeSnapshot> found) {
        return reconciler.adoption(table, known, found, CEILING, id -> true);
    }

    private static TieringSnapshotProperties props(
            long tableId, long epoch, long round, Map<Integer, Long> offsets, long at) {
        return TieringSnapshotProperties.of(tableId, epoch, round, new TreeMap<>(offsets), at);
    }

    private static Optional<LakeSnapshot> snapshot(long id, TieringSnapshotProperties props) {
        return Optional.of(new LakeSnapshot(id, 77, props));
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
