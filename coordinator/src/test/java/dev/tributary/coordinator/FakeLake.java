package dev.tributary.coordinator;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.id.TablePath;
import dev.tributary.coordinator.spi.LakeCommitStep;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.lake.api.commit.TieredRound;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A lake that keeps committed snapshots in memory; can fail or half-fail commits, and records the
 * files it was asked to delete. It refuses a commit built on a round older than the newest one it
 * holds, as the real committers do. It does less than a real lake: results are opaque bytes counted
 * as one file each, and orphan cleanup only records the policy it was given.
 */
public class FakeLake implements LakeCommitStep {
    /** How the next commit behaves. */
    public enum Mode {
        OK,
        /** Throws without committing. */
        FAIL,
        /** Commits, then throws (outcome unknown to the caller). */
        COMMIT_THEN_FAIL
    }

    /** One commit call that reached the lake. */
    public record Commit(TablePath path, List<byte[]> results, TieringSnapshotProperties props) {}

    private final Map<Long, List<LakeSnapshot>> snapshots = new HashMap<>();
    private final List<Commit> commits = new ArrayList<>();
    private final List<byte[]> aborted = new ArrayList<>();
    private final List<OrphanPolicy> sweeps = new ArrayList<>();
    private long nextSnapshotId = 1;
    private Mode nextMode = Mode.OK;
    private boolean failReads;
    private boolean corrupt;

    public synchronized void failNextCommit(Mode mode) {
        this.nextMode = mode;
    }

    public synchronized void failReads(boolean fail) {
        this.failReads = fail;
    }

    /** Reads of the newest snapshot fail as if its tiering properties were malformed. */
    public synchronized void corruptProperties(boolean corrupt) {
        this.corrupt = corrupt;
    }

    @Override
    public synchronized LakeCommitResult commit(
            TablePath path,
            List<byte[]> writeResults,
            TieringSnapshotProperties properties,
            TieredRound base) {
        Mode mode = nextMode;
        nextMode = Mode.OK;
        if (mode == Mode.FAIL) {
            throw new IllegalStateException("injected lake commit failure");
        }
        if (writeResults.isEmpty()) {
            commits.add(new Commit(path, List.copyOf(writeResults), properties));
            return LakeCommitResult.nothingToCommit();
        }
        // the fence of the real committers (LakeCommitter#commit)
        base.checkNotOvertaken(path, properties, latestTieringSnapshot(path, properties.tableId()));
        commits.add(new Commit(path, List.copyOf(writeResults), properties));
        long id = append(properties);
        if (mode == Mode.COMMIT_THEN_FAIL) {
            throw new IllegalStateException("injected failure after the lake commit");
        }
        long bytes = writeResults.stream().mapToLong(r -> r.length).sum();
        return LakeCommitResult.committed(id, writeResults.size(), writeResults.size(), bytes);
    }

    /** Adds a snapshot directly (as a commit whose coordinator record was lost). */
    public synchronized long append(TieringSnapshotProperties properties) {
        long id = nextSnapshotId++;
        snapshots
                .computeIfAbsent(properties.tableId(), k -> new ArrayList<>())
                .add(new LakeSnapshot(id, properties.committedAtMillis(), properties));
        return id;
    }

    @Override
    public synchronized void abort(TablePath path, List<byte[]> writeResults) {
        aborted.addAll(writeResults);
    }

    @Override
    public synchronized List<String> deleteOrphanFiles(TablePath path, OrphanPolicy policy) {
        sweeps.add(policy);
        return List.of();
    }

    @Override
    public synchronized Optional<LakeSnapshot> latestTieringSnapshot(TablePath path, long tableId) {
        if (failReads) {
            throw new IllegalStateException("injected lake read failure");
        }
        if (corrupt) {
            throw new CorruptDataException("malformed Tributary properties in a lake snapshot");
        }
        List<LakeSnapshot> list = snapshots.get(tableId);
        return list == null || list.isEmpty()
                ? Optional.empty()
                : Optional.of(list.get(list.size() - 1));
    }

    public synchronized List<Commit> commits() {
        return List.copyOf(commits);
    }

    public synchronized List<LakeSnapshot> snapshots(long tableId) {
        return List.copyOf(snapshots.getOrDefault(tableId, List.of()));
    }

    /** Results whose files the coordinator asked to delete. */
    public synchronized List<byte[]> aborted() {
        return List.copyOf(aborted);
    }

    /** The policies of the orphan cleanups the coordinator ran. */
    public synchronized List<OrphanPolicy> sweeps() {
        return List.copyOf(sweeps);
    }
}
