package dev.tributary.server.lake;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.spi.LakeCommitRequest;
import dev.tributary.coordinator.spi.LakeCommitStep;
import dev.tributary.coordinator.spi.LakeSnapshotRecord;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriteResultSerializer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The coordinator's lake commit step over the lake SPI: unpacks the round's write results and
 * commits them as one lake snapshot carrying the tiering properties (T4, T21). The coordinator runs
 * at most one commit per table at a time, so a committer is created per call (cheap) and never
 * shared between threads.
 */
public final class LakeCommitStepImpl implements LakeCommitStep {
    private final LakeStorage lake;

    public LakeCommitStepImpl(LakeStorage lake) {
        this.lake = lake;
    }

    @Override
    public long commit(LakeCommitRequest request) {
        List<LakeWriteResult> results = new ArrayList<>();
        for (byte[] r : Committables.unpack(request.committable())) {
            results.add(LakeWriteResultSerializer.INSTANCE.deserialize(r));
        }
        TieringSnapshotProperties props =
                new TieringSnapshotProperties(
                        request.tableId(),
                        request.epoch(),
                        request.roundId(),
                        LakeCommitter.DEFAULT_COMMIT_USER,
                        request.tieredOffsetsAfter(),
                        Map.of());
        try (LakeCommitter committer = lake.createCommitter(request.path())) {
            LakeCommitResult result = committer.commit(results, props);
            return result.snapshot().orElse(-1L);
        }
    }

    @Override
    public Optional<LakeSnapshotRecord> latestTieringSnapshot(
            long tableId, TablePath path, TableDescriptor descriptor) {
        if (!lake.catalog().tableExists(path)) {
            return Optional.empty();
        }
        try (LakeCommitter committer = lake.createCommitter(path)) {
            Optional<LakeSnapshot> s = committer.latestTieringSnapshot();
            return s.filter(snap -> snap.properties().tableId() == tableId)
                    .map(
                            snap ->
                                    new LakeSnapshotRecord(
                                            snap.snapshotId(), snap.properties().toProperties()));
        }
    }
}
