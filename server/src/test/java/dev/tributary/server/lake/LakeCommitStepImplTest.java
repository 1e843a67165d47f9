package dev.tributary.server.lake;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.spi.LakeCommitRequest;
import dev.tributary.coordinator.spi.LakeSnapshotRecord;
import dev.tributary.coordinator.tiering.TieringSnapshotProperties;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.catalog.LakeCatalog;
import dev.tributary.lake.api.catalog.LakeTableInfo;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriteResultSerializer;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The server's lake commit step: unpacks the job's serialized write results, commits them with the
 * round's tiering properties, and hands the coordinator the newest tiering snapshot in the
 * coordinator's own property form (T21). The lake is a recording fake here; the real formats are
 * exercised end to end by the tiering module's ServerTieringITCase.
 */
class LakeCommitStepImplTest {
    private static final TablePath PATH = TablePath.of("db", "t");
    private static final TableDescriptor DESCRIPTOR =
            TableDescriptor.builder(Schema.newBuilder().column("id", DataTypes.BIGINT()).build())
                    .bucketCount(2)
                    .build();

    @Test
    @DisplayName("T21 T20: the commit step's snapshot reads back in the coordinator's form")
    void commitsTheRoundAndReadsItBackInTheCoordinatorsForm() throws Exception {
        RecordingLake lake = new RecordingLake();
        LakeCommitStepImpl step = new LakeCommitStepImpl(lake);
        assertThat(step.latestTieringSnapshot(7, PATH, DESCRIPTOR)).isEmpty();

        List<byte[]> results = new ArrayList<>();
        for (int bucket = 0; bucket < 2; bucket++) {
            results.add(
                    LakeWriteResultSerializer.INSTANCE.serialize(
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
                                    new byte[] {(byte) bucket})));
        }
        SortedMap<Integer, Long> offsets = new TreeMap<>();
        offsets.put(0, 10L);
        offsets.put(1, 10L);
        TieringSnapshotProperties coordinatorProps =
                new TieringSnapshotProperties(7, 3_000_000_001L, 4, offsets, 1234L);
        long id =
                step.commit(
                        new LakeCommitRequest(
                                7,
                                PATH,
                                DESCRIPTOR,
                                1,
                                3_000_000_001L,
                                4,
                                offsets,
                                offsets,
                                Committables.pack(results),
                                coordinatorProps.toMap()));
        assertThat(id).isEqualTo(1);
        assertThat(lake.committed).hasSize(2);
        assertThat(lake.committed.get(1).bucket()).isEqualTo(1);

        Optional<LakeSnapshotRecord> back = step.latestTieringSnapshot(7, PATH, DESCRIPTOR);
        assertThat(back).isPresent();
        assertThat(back.get().snapshotId()).isEqualTo(1);
        assertThat(TieringSnapshotProperties.parse(back.get().properties()))
                .contains(coordinatorProps);
        // a snapshot of a dropped and re-created table with the same name is not ours (T20)
        assertThat(step.latestTieringSnapshot(8, PATH, DESCRIPTOR)).isEmpty();
    }

    @Test
    @DisplayName("T27: an empty round commits no lake snapshot")
    void emptyRoundsCommitNothing() throws Exception {
        RecordingLake lake = new RecordingLake();
        LakeCommitStepImpl step = new LakeCommitStepImpl(lake);
        long id =
                step.commit(
                        new LakeCommitRequest(
                                7,
                                PATH,
                                DESCRIPTOR,
                                1,
                                5,
                                1,
                                new TreeMap<>(),
                                new TreeMap<>(),
                                Committables.pack(List.of()),
                                java.util.Map.of()));
        assertThat(id).isEqualTo(-1);
        assertThat(Committables.unpack(Committables.pack(List.of(new byte[] {1}, new byte[0]))))
                .hasSize(2);
    }

    /** Records commits; the newest snapshot is the last commit. */
    private static final class RecordingLake implements LakeStorage {
        final List<LakeWriteResult> committed = new ArrayList<>();
        LakeSnapshot latest;

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
                    return true;
                }

                @Override
                public LakeTableInfo describeTable(TablePath tablePath) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public void validateTable(TablePath tablePath, TableDescriptor table) {}
            };
        }

        @Override
        public LakeWriter createWriter(LakeWriterContext context) {
            throw new UnsupportedOperationException();
        }

        @Override
        public LakeCommitter createCommitter(TablePath tablePath) {
            return new LakeCommitter() {
                @Override
                public LakeCommitResult commit(
                        List<LakeWriteResult> results,
                        dev.tributary.lake.api.commit.TieringSnapshotProperties properties) {
                    if (results.isEmpty()) {
                        return LakeCommitResult.nothingToCommit();
                    }
                    committed.addAll(results);
                    long id = latest == null ? 1 : latest.snapshotId() + 1;
                    latest = new LakeSnapshot(id, 99L, properties);
                    return LakeCommitResult.committed(id, 20, 2, 200);
                }

                @Override
                public void abort(List<LakeWriteResult> results) {}

                @Override
                public Optional<LakeSnapshot> latestTieringSnapshot() {
                    return Optional.ofNullable(latest);
                }

                @Override
                public List<String> listOrphanFiles(Instant olderThan) {
                    return List.of();
                }

                @Override
                public List<String> deleteOrphanFiles(Instant olderThan) {
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
