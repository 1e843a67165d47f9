package dev.tributary.server.lake;

import dev.tributary.common.id.TablePath;
import dev.tributary.coordinator.spi.LakeCommitStep;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.lake.api.commit.TieredRound;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.io.ObjectStoreRequests;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriteResultSerializer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The coordinator's lake step over the server's one {@link LakeStorage}: decodes the round's write
 * results (the lake SPI's versioned serializer) and hands them to a committer of the table. The
 * coordinator never runs two steps of one table at once, so a committer is created per call (cheap)
 * and never shared between threads.
 */
public final class LakeCommitStepImpl implements LakeCommitStep {
    private final LakeStorage lake;
    private final ObjectStoreCosts costs;

    public LakeCommitStepImpl(LakeStorage lake) {
        this(lake, new ObjectStoreCosts(ObjectStoreRequests.global()));
    }

    /** A step that also cuts each round's object-store cost out of the counts (T47). */
    public LakeCommitStepImpl(LakeStorage lake, ObjectStoreCosts costs) {
        this.lake = lake;
        this.costs = costs;
    }

    @Override
    public LakeCommitResult commit(
            TablePath path,
            List<byte[]> writeResults,
            TieringSnapshotProperties properties,
            TieredRound base) {
        try (LakeCommitter committer = lake.createCommitter(path)) {
            return committer.commit(decode(writeResults), properties, base);
        } finally {
            costs.roundEnded(path);
        }
    }

    @Override
    public void abort(TablePath path, List<byte[]> writeResults) {
        if (!lake.catalog().tableExists(path)) {
            return; // the lake table and its files are gone already
        }
        try (LakeCommitter committer = lake.createCommitter(path)) {
            committer.abort(decode(writeResults));
        }
    }

    @Override
    public List<String> deleteOrphanFiles(TablePath path, OrphanPolicy policy) {
        return costs.sweep(
                path,
                () -> {
                    try (LakeCommitter committer = lake.createCommitter(path)) {
                        return committer.deleteOrphanFiles(policy);
                    }
                });
    }

    @Override
    public Optional<LakeSnapshot> latestTieringSnapshot(TablePath path, long tableId) {
        if (!lake.catalog().tableExists(path)) {
            return Optional.empty();
        }
        try (LakeCommitter committer = lake.createCommitter(path)) {
            return committer.latestTieringSnapshot(tableId);
        }
    }

    private static List<LakeWriteResult> decode(List<byte[]> writeResults) {
        List<LakeWriteResult> out = new ArrayList<>(writeResults.size());
        for (byte[] r : writeResults) {
            out.add(LakeWriteResultSerializer.INSTANCE.deserialize(r));
        }
        return out;
    }
}
