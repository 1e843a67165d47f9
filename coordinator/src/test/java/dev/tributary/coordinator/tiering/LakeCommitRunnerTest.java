package dev.tributary.coordinator.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.ManualClock;
import dev.tributary.coordinator.FakeLake;
import dev.tributary.coordinator.ManualExecutor;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.runtime.ManualLoop;
import dev.tributary.coordinator.spi.LakeCommitStep;
import dev.tributary.coordinator.status.RoundSummary;
import dev.tributary.coordinator.store.InMemoryMetadataStore;
import dev.tributary.coordinator.store.MetadataStore;
import dev.tributary.coordinator.store.StoredState;
import dev.tributary.coordinator.store.TieringRecord;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.api.RoundStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A commit's lake work on its own: what the lake gets, what is recorded, where answers go. */
class LakeCommitRunnerTest {
    private static final long TABLE_ID = 3;
    private static final long START = 8_000_000L;

    private final ManualClock clock = new ManualClock(START);
    private final ManualExecutor io = new ManualExecutor();
    private final ManualLoop loop = new ManualLoop(clock);
    private final FakeLake lake = new FakeLake();
    private final FlakyStore store = new FlakyStore();
    private final TableInfo table = LakeReconcilerTest.table(TABLE_ID);
    private final TieringConfig config = TieringConfig.defaults();

    /** Buckets 0 and 1 already tiered to 100 and 50 by round 2 of epoch 5. */
    private final TieringRecord base =
            TieringRecord.initial(TABLE_ID, 1_000)
                    .afterCommit(Map.of(0, 100L, 1, 50L), 2_000, 1, 5, 2, false, null);

    private final byte[] discarded = {7};
    private final RoundCommit request =
            new RoundCommit(
                    "job-a",
                    TABLE_ID,
                    6,
                    3,
                    RoundCommit.keyed(Map.of(1, 80L, 2, 10L)),
                    List.of(new byte[] {9, 8}, new byte[] {1, 2, 3}),
                    List.of(discarded),
                    new RoundStats(40, 4_000),
                    true);

    private final List<LakeCommitResult> committed = new ArrayList<>();
    private final List<TieringRecord> committedRecords = new ArrayList<>();
    private final List<Boolean> cleanedUp = new ArrayList<>();
    private final List<Throwable> failures = new ArrayList<>();
    private final List<Boolean> unknown = new ArrayList<>();
    private int ended;

    LakeCommitRunnerTest() {
        // the store keeps tiering records of known tables only
        store.putTable(table);
    }

    private void run(LakeCommitRunner runner, boolean sweep) {
        runner.run(
                table,
                base,
                new LakeCommitRunner.RoundStart("job-a", 250, START - 700),
                request,
                sweep,
                id -> null,
                -1,
                new LakeCommitRunner.Callbacks() {
                    @Override
                    public void committed(
                            TieringRecord next, LakeCommitResult result, boolean clean) {
                        assertThat(ended).as("ended comes first").isEqualTo(1);
                        committed.add(result);
                        committedRecords.add(next);
                        cleanedUp.add(clean);
                    }

                    @Override
                    public void failed(Throwable cause, boolean outcomeUnknown) {
                        failures.add(cause);
                        unknown.add(outcomeUnknown);
                    }

                    @Override
                    public void ended() {
                        ended++;
                    }
                });
    }

    private LakeCommitRunner runner() {
        return runner(lake);
    }

    private LakeCommitRunner runner(LakeCommitStep lakeStep) {
        return new LakeCommitRunner(lakeStep, store, clock, loop, io, loop, config);
    }

    @Test
    @DisplayName("T20 T21 the lake gets the round and snapshot properties that rebuild the record")
    void theLakeGetsTheRoundWithPropertiesThatRebuildTheRecord() {
        run(runner(), false);
        clock.advanceMillis(300); // the lake commit takes a while
        io.runOne();

        FakeLake.Commit sent = lake.commits().get(0);
        assertThat(sent.path()).isEqualTo(table.path());
        assertThat(sent.results()).containsExactly(request.writeResults().toArray(byte[][]::new));
        assertThat(sent.props())
                .isEqualTo(
                        TieringSnapshotProperties.of(
                                TABLE_ID, 6, 3, Map.of(0, 100L, 1, 80L, 2, 10L), START));
    }

    @Test
    @DisplayName(
            "T20 T28 the outcome, with the lake's own figures, is recorded before the loop hears")
    void theRecordIsStoredBeforeTheLoopHearsOfTheCommit() {
        run(runner(), false);
        clock.advanceMillis(300);
        io.runOne();

        TieringRecord stored = store.tieringRecord(TABLE_ID).orElseThrow();
        assertThat(committed).as("answers wait for the loop").isEmpty();
        loop.runReady();

        assertThat(committed)
                .singleElement()
                .satisfies(r -> assertThat(r.snapshotId()).isEqualTo(1));
        assertThat(committedRecords).containsExactly(stored);
        assertThat(failures).isEmpty();
        assertThat(ended).isEqualTo(1);
        assertThat(stored.tieredOffsets())
                .containsExactly(Map.entry(0, 100L), Map.entry(1, 80L), Map.entry(2, 10L));
        assertThat(stored.lakeSnapshotId()).isEqualTo(1);
        assertThat(stored.epoch()).isEqualTo(6);
        assertThat(stored.roundId()).isEqualTo(3);
        assertThat(stored.lastTieredTimeMillis()).isEqualTo(START + 300);
        assertThat(stored.continueImmediately()).as("force-finished: next round at once").isTrue();
        // rows/files/bytes are what FakeLake reports for the two results, not the job's figures
        assertThat(stored.lastRound())
                .isEqualTo(
                        new RoundSummary(
                                6,
                                3,
                                "job-a",
                                250,
                                START - 700,
                                START + 300,
                                RoundSummary.Outcome.COMMITTED,
                                2,
                                5,
                                2,
                                40,
                                4_000,
                                true,
                                1,
                                null));
    }

    @Test
    @DisplayName("T23 discarded results are deleted after the commit, orphans swept when asked")
    void discardedResultsAreAbortedAndOrphansSweptAfterTheCommit() {
        run(runner(), true);
        io.runOne();
        loop.runReady();

        assertThat(lake.aborted()).containsExactly(discarded);
        assertThat(lake.sweeps())
                .singleElement()
                .satisfies(
                        p -> {
                            assertThat(p.tableId()).isEqualTo(TABLE_ID);
                            assertThat(p.deadUpToEpoch())
                                    .as("every attempt up to the committed one is dead")
                                    .isEqualTo(6);
                            assertThat(p.olderThan().toEpochMilli())
                                    .isEqualTo(START - config.orphanGracePeriod().toMillis());
                        });
        assertThat(cleanedUp).containsExactly(true);
    }

    @Test
    @DisplayName("T23 a failed clean-up does not fail the committed round, it is retried later")
    void aFailedCleanUpDoesNotFailTheRound() {
        FakeLake failingCleanUp =
                new FakeLake() {
                    @Override
                    public synchronized void abort(TablePath path, List<byte[]> results) {
                        throw new IllegalStateException("disk gone");
                    }
                };
        run(runner(failingCleanUp), false);
        io.runOne();
        loop.runReady();

        assertThat(failures).isEmpty();
        assertThat(committed).hasSize(1);
        assertThat(cleanedUp).containsExactly(false);
        assertThat(failingCleanUp.sweeps()).as("a failed abort falls back to a sweep").hasSize(1);
    }

    @Test
    @DisplayName("T21 a failed lake commit is reported as of unknown outcome, nothing recorded")
    void aFailedLakeCommitIsReportedAsUnknown() {
        lake.failNextCommit(FakeLake.Mode.FAIL);
        run(runner(), false);
        io.runOne();
        assertThat(failures).isEmpty();
        loop.runReady();

        assertThat(failures)
                .singleElement()
                .satisfies(e -> assertThat(e).hasMessageContaining("injected"));
        assertThat(unknown).containsExactly(true);
        assertThat(committed).isEmpty();
        assertThat(ended).isEqualTo(1);
        assertThat(store.tieringRecord(TABLE_ID)).isEmpty();
    }

    @Test
    @DisplayName("T21 a commit whose record cannot be stored is reported as of unknown outcome")
    void aRecordThatCannotBeStoredIsReportedAsUnknown() {
        store.failPuts = true;
        run(runner(), false);
        io.runOne();
        loop.runReady();

        assertThat(lake.snapshots(TABLE_ID)).as("the lake holds the round").hasSize(1);
        assertThat(failures)
                .singleElement()
                .satisfies(e -> assertThat(e).hasMessageContaining("disk full"));
        assertThat(unknown).containsExactly(true);
        assertThat(committed).isEmpty();
    }

    @Test
    @DisplayName("a commit that never started within the timeout fails with a known outcome")
    void aCommitQueuedPastTheTimeoutNeverRuns() {
        run(runner(), false);
        loop.advance(config.commitTimeout());

        assertThat(failures)
                .singleElement()
                .satisfies(e -> assertThat(e).isInstanceOf(TimeoutException.class));
        assertThat(unknown).containsExactly(false);
        assertThat(ended).isEqualTo(1);
        io.runOne();
        loop.runReady();
        assertThat(lake.commits()).as("an abandoned commit never reaches the lake").isEmpty();
        assertThat(ended).isEqualTo(1);
    }

    @Test
    @DisplayName("T21 a commit running past the timeout: unknown at once, ended when it returns")
    void aCommitRunningPastTheTimeoutIsAbandonedButEndsOnlyWhenItReturns() throws Exception {
        CountDownLatch inLake = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        FakeLake slow =
                new FakeLake() {
                    @Override
                    public LakeCommitResult commit(
                            TablePath path,
                            List<byte[]> results,
                            TieringSnapshotProperties p,
                            dev.tributary.lake.api.commit.TieredRound base) {
                        inLake.countDown();
                        try {
                            // uninterruptible, like a hung file system call
                            while (!release.await(1, TimeUnit.SECONDS)) {}
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            while (release.getCount() > 0) {
                                Thread.onSpinWait();
                            }
                        }
                        return super.commit(path, results, p, base);
                    }
                };
        run(runner(slow), false);
        Thread lakeThread = new Thread(io::runOne);
        lakeThread.start();
        assertThat(inLake.await(30, TimeUnit.SECONDS)).isTrue();

        loop.advance(config.commitTimeout());
        assertThat(failures)
                .singleElement()
                .satisfies(e -> assertThat(e).isInstanceOf(TimeoutException.class));
        assertThat(unknown).as("the commit may still land").containsExactly(true);
        assertThat(ended).as("the lake call has not returned").isZero();

        release.countDown();
        lakeThread.join(30_000);
        loop.runReady();
        assertThat(ended).isEqualTo(1);
        assertThat(committed).as("a late success is left to reconciliation").isEmpty();
        assertThat(store.tieringRecord(TABLE_ID)).as("and is not recorded").isEmpty();
        assertThat(slow.snapshots(TABLE_ID)).hasSize(1);
    }

    @Test
    @DisplayName("without a lake a commit fails at once with a known outcome")
    void withoutALakeTheCommitFailsAtOnce() {
        run(runner(null), false);

        assertThat(io.size()).isZero();
        assertThat(failures)
                .singleElement()
                .satisfies(e -> assertThat(e).hasMessageContaining("no lake"));
        assertThat(unknown).containsExactly(false);
        assertThat(ended).isEqualTo(1);
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
        public void putPartition(dev.tributary.coordinator.metadata.PartitionInfo partition) {
            delegate.putPartition(partition);
        }

        @Override
        public void removePartition(long tableId, long partitionId) {
            delegate.removePartition(tableId, partitionId);
        }

        @Override
        public java.util.Map<Integer, dev.tributary.coordinator.metadata.ServerRegistration>
                servers() {
            return delegate.servers();
        }

        @Override
        public void putServer(dev.tributary.coordinator.metadata.ServerRegistration server) {
            delegate.putServer(server);
        }

        @Override
        public void removeServer(int serverId) {
            delegate.removeServer(serverId);
        }

        @Override
        public void setDraining(int serverId, boolean draining) {
            delegate.setDraining(serverId, draining);
        }

        @Override
        public boolean putAssignment(
                dev.tributary.coordinator.metadata.BucketAssignment assignment) {
            return delegate.putAssignment(assignment);
        }

        @Override
        public void close() {}
    }
}
