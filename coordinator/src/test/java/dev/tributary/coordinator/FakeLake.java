package dev.tributary.coordinator;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.spi.LakeCommitRequest;
import dev.tributary.coordinator.spi.LakeCommitStep;
import dev.tributary.coordinator.spi.LakeSnapshotRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A lake that keeps committed snapshots in memory; can fail or half-fail commits. */
public final class FakeLake implements LakeCommitStep {
    /** How the next commit behaves. */
    public enum Mode {
        OK,
        /** Throws without committing. */
        FAIL,
        /** Commits, then throws (outcome unknown to the caller). */
        COMMIT_THEN_FAIL
    }

    private final Map<Long, List<LakeSnapshotRecord>> snapshots = new HashMap<>();
    private final List<LakeCommitRequest> commits = new ArrayList<>();
    private long nextSnapshotId = 1;
    private Mode nextMode = Mode.OK;
    private boolean failReads;

    public synchronized void failNextCommit(Mode mode) {
        this.nextMode = mode;
    }

    public synchronized void failReads(boolean fail) {
        this.failReads = fail;
    }

    @Override
    public synchronized long commit(LakeCommitRequest request) {
        Mode mode = nextMode;
        nextMode = Mode.OK;
        if (mode == Mode.FAIL) {
            throw new IllegalStateException("injected lake commit failure");
        }
        long id = append(request.tableId(), request.snapshotProperties());
        commits.add(request);
        if (mode == Mode.COMMIT_THEN_FAIL) {
            throw new IllegalStateException("injected failure after the lake commit");
        }
        return id;
    }

    /** Adds a snapshot directly (as a commit whose coordinator record was lost). */
    public synchronized long append(long tableId, Map<String, String> properties) {
        long id = nextSnapshotId++;
        snapshots
                .computeIfAbsent(tableId, k -> new ArrayList<>())
                .add(new LakeSnapshotRecord(id, properties));
        return id;
    }

    @Override
    public synchronized Optional<LakeSnapshotRecord> latestTieringSnapshot(
            long tableId, TablePath path, TableDescriptor descriptor) {
        if (failReads) {
            throw new IllegalStateException("injected lake read failure");
        }
        List<LakeSnapshotRecord> list = snapshots.get(tableId);
        return list == null || list.isEmpty()
                ? Optional.empty()
                : Optional.of(list.get(list.size() - 1));
    }

    public synchronized List<LakeCommitRequest> commits() {
        return List.copyOf(commits);
    }

    public synchronized List<LakeSnapshotRecord> snapshots(long tableId) {
        return List.copyOf(snapshots.getOrDefault(tableId, List.of()));
    }
}
