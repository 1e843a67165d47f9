package dev.tributary.coordinator.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.time.ManualClock;
import dev.tributary.coordinator.FakeLake;
import dev.tributary.coordinator.ManualExecutor;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.spi.LakeCommitRequest;
import dev.tributary.coordinator.status.RoundSummary;
import dev.tributary.coordinator.store.InMemoryMetadataStore;
import dev.tributary.coordinator.store.MetadataStore;
import dev.tributary.coordinator.store.StoredState;
import dev.tributary.coordinator.store.TieringRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A commit's lake work on its own: what the lake gets, what is recorded, where answers go. */
class LakeCommitRunnerTest {
    private static final long TABLE_ID = 3;
    private static final long START = 8_000_000L;

    private final ManualClock clock = new ManualClock(START);
    private final ManualExecutor io = new ManualExecutor();
    private final ManualExecutor loop = new ManualExecutor();
    private final FakeLake lake = new FakeLake();
    private final FlakyStore store = new FlakyStore();
    private final TableInfo table = LakeReconcilerTest.table(TABLE_ID);

    /** Buckets 0 and 1 already tiered to 100 and 50 by round 2 of epoch 5. */
    private final TieringRecord base =
            TieringRecord.initial(TABLE_ID, 1_000)
                    .afterCommit(Map.of(0, 100L, 1, 50L), 2_000, 1, 5, 2, false, null);

    private final CommitRequest request =
            CommitRequest.of(
                    "job-a",
                    TABLE_ID,
                    6,
                    3,
                    Map.of(1, 80L, 2, 10L),
                    new byte[] {9, 8},
                    new RoundStats(40, 4_000, 2),
                    true);

    private final List<Long> committedIds = new ArrayList<>();
    private final List<TieringRecord> committedRecords = new ArrayList<>();
    private final List<Throwable> failures = new ArrayList<>();
    private final List<Boolean> unknown = new ArrayList<>();

    LakeCommitRunnerTest() {
        // the store keeps tiering records of known tables only
        store.putTable(table);
    }

    private void run(LakeCommitRunner runner) {
        runner.run(
                table,
                base,
                START - 700,
                request,
                (id, next) -> {
                    committedIds.add(id);
                    committedRecords.add(next);
                },
                (e, outcomeUnknown) -> {
                    failures.add(e);
                    unknown.add(outcomeUnknown);
                });
    }

    private LakeCommitRunner runner() {
        return new LakeCommitRunner(lake, store, clock, loop, io);
    }

    @Test
    @DisplayName("T20 T21 the lake gets the round and snapshot properties that rebuild the record")
    void theLakeGetsTheRoundWithPropertiesThatRebuildTheRecord() {
        run(runner());
        clock.advanceMillis(300); // the lake commit takes a while
        io.runOne();

        LakeCommitRequest sent = lake.commits().get(0);
        assertThat(sent.tableId()).isEqualTo(TABLE_ID);
        assertThat(sent.path()).isEqualTo(table.path());
        assertThat(sent.schemaId()).isEqualTo(table.schemaId());
        assertThat(sent.epoch()).isEqualTo(6);
        assertThat(sent.roundId()).isEqualTo(3);
        assertThat(sent.committable()).containsExactly(9, 8);
        assertThat(sent.roundEndOffsets()).containsExactly(Map.entry(1, 80L), Map.entry(2, 10L));
        assertThat(sent.tieredOffsetsAfter())
                .containsExactly(Map.entry(0, 100L), Map.entry(1, 80L), Map.entry(2, 10L));
        TieringSnapshotProperties props =
                TieringSnapshotProperties.parse(sent.snapshotProperties()).orElseThrow();
        assertThat(props)
                .isEqualTo(
                        new TieringSnapshotProperties(
                                TABLE_ID, 6, 3, sent.tieredOffsetsAfter(), START));
    }

    @Test
    @DisplayName("T20 the outcome is recorded durably before the loop hears of it")
    void theRecordIsStoredBeforeTheLoopHearsOfTheCommit() {
        run(runner());
        clock.advanceMillis(300);
        io.runOne();

        TieringRecord stored = store.tieringRecord(TABLE_ID).orElseThrow();
        assertThat(committedIds).as("answers wait for the loop").isEmpty();
        assertThat(loop.size()).isEqualTo(1);
        loop.runOne();

        assertThat(committedIds).containsExactly(1L);
        assertThat(committedRecords).containsExactly(stored);
        assertThat(failures).isEmpty();
        assertThat(stored.tieredOffsets())
                .containsExactly(Map.entry(0, 100L), Map.entry(1, 80L), Map.entry(2, 10L));
        assertThat(stored.lakeSnapshotId()).isEqualTo(1);
        assertThat(stored.epoch()).isEqualTo(6);
        assertThat(stored.roundId()).isEqualTo(3);
        assertThat(stored.lastTieredTimeMillis()).isEqualTo(START + 300);
        assertThat(stored.continueImmediately()).as("force-finished: next round at once").isTrue();
        assertThat(stored.lastRound())
                .isEqualTo(
                        new RoundSummary(
                                6,
                                3,
                                START - 700,
                                START + 300,
                                RoundSummary.Outcome.COMMITTED,
                                40,
                                4_000,
                                2,
                                40,
                                4_000,
                                true,
                                1,
                                null));
    }

    @Test
    @DisplayName("T21 a failed lake commit is reported as of unknown outcome, nothing recorded")
    void aFailedLakeCommitIsReportedAsUnknown() {
        lake.failNextCommit(FakeLake.Mode.FAIL);
        run(runner());
        io.runOne();
        assertThat(failures).isEmpty();
        loop.runOne();

        assertThat(failures)
                .singleElement()
                .satisfies(e -> assertThat(e).hasMessageContaining("injected"));
        assertThat(unknown).containsExactly(true);
        assertThat(committedIds).isEmpty();
        assertThat(store.tieringRecord(TABLE_ID)).isEmpty();
    }

    @Test
    @DisplayName("T21 a commit whose record cannot be stored is reported as of unknown outcome")
    void aRecordThatCannotBeStoredIsReportedAsUnknown() {
        store.failPuts = true;
        run(runner());
        io.runOne();
        loop.runOne();

        assertThat(lake.snapshots(TABLE_ID)).as("the lake holds the round").hasSize(1);
        assertThat(failures)
                .singleElement()
                .satisfies(e -> assertThat(e).hasMessageContaining("disk full"));
        assertThat(unknown).containsExactly(true);
        assertThat(committedIds).isEmpty();
    }

    @Test
    @DisplayName("without a lake a commit fails at once with a known outcome")
    void withoutALakeTheCommitFailsAtOnce() {
        run(new LakeCommitRunner(null, store, clock, loop, io));

        assertThat(io.size()).isZero();
        assertThat(failures)
                .singleElement()
                .satisfies(e -> assertThat(e).hasMessageContaining("no lake"));
        assertThat(unknown).containsExactly(false);
    }

    /** An in-memory store whose tiering-record writes can be made to fail. */
    private static final class FlakyStore implements MetadataStore {
        private final InMemoryMetadataStore delegate = new InMemoryMetadataStore();
        boolean failPuts;

        @Override
        public StoredState load() {
            return delegate.load();
        }

        @Override
        public long startIncarnation() {
            return delegate.startIncarnation();
        }

        @Override
        public void putDatabase(DatabaseInfo database) {
            delegate.putDatabase(database);
        }

        @Override
        public void removeDatabase(String name) {
            delegate.removeDatabase(name);
        }

        @Override
        public void putTable(TableInfo t) {
            delegate.putTable(t);
        }

        @Override
        public void removeTable(long tableId) {
            delegate.removeTable(tableId);
        }

        @Override
        public boolean putTieringRecord(TieringRecord record) {
            if (failPuts) {
                throw new IllegalStateException("disk full");
            }
            return delegate.putTieringRecord(record);
        }

        @Override
        public Optional<TieringRecord> tieringRecord(long tableId) {
            return delegate.tieringRecord(tableId);
        }

        @Override
        public void close() {}
    }
}
