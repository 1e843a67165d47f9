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
 * commits them as one lake snapshot carrying the tiering properties (T4, T21), and reads the newest
 * such snapshot back in the coordinator's property form for reconciliation. The coordinator runs at
 * most one commit per table at a time, so a committer is created per call (cheap) and never shared
 * between threads.
 */
public final class LakeCommitStepImpl implements LakeCommitStep {
    /** Extra snapshot property (under the lake SPI's {@code tributary.x.} prefix). */
    static final String COMMITTED_AT = "committed-at";

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
        long committedAt =
                dev.tributary.coordinator.tiering.TieringSnapshotProperties.parse(
                                request.snapshotProperties())
                        .map(p -> p.committedAtMillis())
                        .orElse(-1L);
        TieringSnapshotProperties props =
                new TieringSnapshotProperties(
                        request.tableId(),
                        request.epoch(),
                        request.roundId(),
                        LakeCommitter.DEFAULT_COMMIT_USER,
                        request.tieredOffsetsAfter(),
                        Map.of(COMMITTED_AT, Long.toString(committedAt)));
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
                    .map(snap -> new LakeSnapshotRecord(snap.snapshotId(), coordinatorView(snap)));
        }
    }

    /**
     * The lake SPI and the coordinator name the tiering properties differently; the coordinator
     * parses its own form ({@link dev.tributary.coordinator.tiering.TieringSnapshotProperties}).
     */
    static Map<String, String> coordinatorView(LakeSnapshot snap) {
        TieringSnapshotProperties p = snap.properties();
        String at = p.extra().get(COMMITTED_AT);
        long committedAt = at == null ? snap.committedAtMillis() : Long.parseLong(at);
        return new dev.tributary.coordinator.tiering.TieringSnapshotProperties(
                        p.tableId(), p.epoch(), p.roundId(), p.bucketOffsets(), committedAt)
                .toMap();
    }
}
