package dev.tributary.server.lake;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.catalog.LakeCatalog;
import dev.tributary.lake.api.catalog.LakeTableInfo;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.lake.api.commit.TieredRound;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriteResultSerializer;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The server's lake step: decodes the job's serialized write results for the table's committer and
 * reads back only the table's own tiering snapshots. The lake is a recording fake here; the real
 * formats are exercised end to end by the tiering module's ITCases.
 */
class LakeCommitStepImplTest {
    private static final TablePath PATH = TablePath.of("db", "t");

    private static byte[] result(int bucket) {
        return LakeWriteResultSerializer.INSTANCE.serialize(
                new LakeWriteResult(
                        "fake",
                        PATH,
                        7,
                        3_000_000_001L,
                        4,
                        bucket,
                        10,
                        List.of("f" + bucket),
                        100,
                        1,
                        2,
                        new byte[] {(byte) bucket}));
    }

    @Test
    @DisplayName("T21 T20: the round's decoded results commit with its properties and read back")
    void commitsTheRoundAndReadsBackOnlyTheTablesOwnSnapshots() throws Exception {
        RecordingLake lake = new RecordingLake();
        LakeCommitStepImpl step = new LakeCommitStepImpl(lake);
        assertThat(step.latestTieringSnapshot(PATH, 7)).isEmpty();

        TieringSnapshotProperties props =
                TieringSnapshotProperties.of(7, 3_000_000_001L, 4, Map.of(0, 10L, 1, 10L), 1234L);
        LakeCommitResult r =
                step.commit(PATH, List.of(result(0), result(1)), props, TieredRound.NONE);

        assertThat(r.snapshotId()).isEqualTo(1);
        assertThat(lake.committed).extracting(LakeWriteResult::bucket).containsExactly(0, 1);
        assertThat(step.latestTieringSnapshot(PATH, 7).orElseThrow().properties()).isEqualTo(props);
        // a snapshot of a dropped and re-created table with the same name is not ours (T20)
        assertThat(step.latestTieringSnapshot(PATH, 8)).isEmpty();
    }

    @Test
    @DisplayName("T23: aborted results reach the committer decoded; a gone lake table is skipped")
    void abortsDecodedResultsUnlessTheLakeTableIsGone() throws Exception {
        RecordingLake lake = new RecordingLake();
        LakeCommitStepImpl step = new LakeCommitStepImpl(lake);
        step.abort(PATH, List.of(result(1)));
        assertThat(lake.aborted).extracting(LakeWriteResult::bucket).containsExactly(1);

        lake.exists = false;
        step.abort(PATH, List.of(result(0)));
        assertThat(lake.aborted).hasSize(1);
    }

    /** Records commits; the newest snapshot is the last commit. */
    private static final class RecordingLake implements LakeStorage {
        final List<LakeWriteResult> committed = new ArrayList<>();
        final List<LakeWriteResult> aborted = new ArrayList<>();
        LakeSnapshot latest;
        boolean exists = true;

        @Override
        public String identifier() {
            return "fake";
        }

        @Override
        public LakeCatalog catalog() {
            return new LakeCatalog() {
                @Override
                public void createTable(TablePath tablePath, TableDescriptor table) {}

                @Override
                public void alterTable(TablePath tablePath, TableDescriptor newTable) {}

                @Override
                public boolean dropTable(TablePath tablePath) {
                    return false;
                }

                @Override
                public boolean tableExists(TablePath tablePath) {
                    return exists;
                }

                @Override
                public LakeTableInfo describeTable(TablePath tablePath) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public void validateTable(TablePath tablePath, TableDescriptor table) {}

                @Override
                public void dropPartition(
                        TablePath tablePath,
                        TableDescriptor table,
                        dev.tributary.common.id.PartitionSpec partition) {
                    throw new UnsupportedOperationException();
                }
            };
        }

        @Override
        public LakeWriter createWriter(LakeWriterContext context) {
            throw new UnsupportedOperationException();
        }

        @Override
        public dev.tributary.lake.api.maintenance.LakeMaintainer createMaintainer(
                TablePath tablePath) {
            throw new UnsupportedOperationException();
        }

        @Override
        public dev.tributary.lake.api.maintenance.LakeCompactor createCompactor(
                dev.tributary.lake.api.maintenance.CompactionTask task) {
            throw new UnsupportedOperationException();
        }

        @Override
        public LakeCommitter createCommitter(TablePath tablePath) {
            return new LakeCommitter() {
                @Override
                public LakeCommitResult commit(
                        List<LakeWriteResult> results,
                        TieringSnapshotProperties properties,
                        TieredRound base) {
                    if (results.isEmpty()) {
                        return LakeCommitResult.nothingToCommit();
                    }
                    committed.addAll(results);
                    long id = latest == null ? 1 : latest.snapshotId() + 1;
                    latest = new LakeSnapshot(id, 99L, properties);
                    return LakeCommitResult.committed(id, 20, 2, 200);
                }

                @Override
                public void abort(List<LakeWriteResult> results) {
                    aborted.addAll(results);
                }

                @Override
                public Optional<LakeSnapshot> latestTieringSnapshot() {
                    return Optional.ofNullable(latest);
                }

                @Override
                public Optional<LakeSnapshot> latestTieringSnapshot(long tableId) {
                    return latestTieringSnapshot().filter(s -> s.properties().tableId() == tableId);
                }

                @Override
                public List<String> listOrphanFiles(OrphanPolicy policy) {
                    return List.of();
                }

                @Override
                public List<String> deleteOrphanFiles(OrphanPolicy policy) {
                    return List.of();
                }

                @Override
                public void close() {}
            };
        }

        @Override
        public void close() {}
    }
}
