package dev.tributary.coordinator;

import dev.tributary.common.id.LakeBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.coordinator.spi.LakeMaintenanceStep;
import dev.tributary.lake.api.maintenance.CompactionPlan;
import dev.tributary.lake.api.maintenance.CompactionPolicy;
import dev.tributary.lake.api.maintenance.ExpiryPolicy;
import dev.tributary.lake.api.maintenance.ExpiryResult;
import dev.tributary.lake.api.maintenance.LakeTableStats;
import dev.tributary.lake.api.maintenance.MaintenanceCommitResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;

/**
 * A lake's maintenance side that answers what the test set and records every call. It does less
 * than a lake: it plans the buckets it was told, commits without looking at the results, and
 * deletes nothing.
 */
public class FakeMaintenanceLake implements LakeMaintenanceStep {
    /** How the next compaction commit behaves. */
    public enum Mode {
        OK,
        CONFLICT,
        FAIL
    }

    /** One call that reached the lake. */
    public record Call(String what, TablePath path, Object argument) {}

    private final List<Call> calls = new ArrayList<>();
    private final Map<TablePath, List<Integer>> plans = new HashMap<>();
    private final List<byte[]> aborted = new ArrayList<>();
    private Mode nextCommit = Mode.OK;
    private ExpiryResult nextExpiry = ExpiryResult.nothing(3);
    private long nextSnapshotId = 1000;
    private volatile boolean nextCommitHangs;
    private final CountDownLatch hanging = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    /**
     * The next compaction commit hangs, deaf to interrupts like a stuck file system call, until
     * {@link #releaseHungCommit}; the latch opens once it hangs. Once per lake.
     */
    public CountDownLatch hangNextCommit() {
        nextCommitHangs = true;
        return hanging;
    }

    public void releaseHungCommit() {
        release.countDown();
    }

    /** The buckets every following plan of {@code path} returns (until set again). */
    public synchronized void planBuckets(TablePath path, List<Integer> buckets) {
        plans.put(path, List.copyOf(buckets));
    }

    public synchronized void failNextCommit(Mode mode) {
        this.nextCommit = mode;
    }

    public synchronized void expireNext(ExpiryResult r) {
        this.nextExpiry = r;
    }

    private LakeTableStats statsOf(TablePath path) {
        TreeMap<Integer, Integer> files = new TreeMap<>();
        for (int b : plans.getOrDefault(path, List.of())) {
            files.put(b, 9);
        }
        return new LakeTableStats(nextSnapshotId, 4, 1, files, 0, 1234);
    }

    @Override
    public synchronized LakeTableStats stats(TablePath path) {
        calls.add(new Call("stats", path, null));
        return statsOf(path);
    }

    @Override
    public synchronized CompactionPlan planCompaction(TablePath path, CompactionPolicy policy) {
        calls.add(new Call("plan", path, policy));
        List<LakeBucket> b =
                plans.getOrDefault(path, List.of()).stream().map(LakeBucket::of).toList();
        return new CompactionPlan(
                statsOf(path), b.subList(0, Math.min(b.size(), policy.maxBuckets())));
    }

    @Override
    public synchronized ExpiryResult expireSnapshots(TablePath path, ExpiryPolicy policy) {
        calls.add(new Call("expire", path, policy));
        ExpiryResult r = nextExpiry;
        nextExpiry = ExpiryResult.nothing(r.snapshotsRetained());
        return r;
    }

    @Override
    public MaintenanceCommitResult commitCompaction(
            TablePath path, long tableId, long maintenanceId, List<byte[]> results) {
        if (nextCommitHangs) {
            nextCommitHangs = false;
            hanging.countDown();
            boolean interrupted = false;
            while (release.getCount() > 0) {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        return commitNow(path, maintenanceId, results);
    }

    private synchronized MaintenanceCommitResult commitNow(
            TablePath path, long maintenanceId, List<byte[]> results) {
        calls.add(new Call("commit", path, maintenanceId));
        Mode mode = nextCommit;
        nextCommit = Mode.OK;
        return switch (mode) {
            case OK ->
                    MaintenanceCommitResult.committed(
                            nextSnapshotId++, results.size(), 1, 100L * results.size(), 90);
            case CONFLICT -> MaintenanceCommitResult.conflict("a file to replace is gone");
            case FAIL -> throw new IllegalStateException("injected compaction commit failure");
        };
    }

    @Override
    public synchronized void abortCompaction(TablePath path, List<byte[]> results) {
        calls.add(new Call("abort", path, results.size()));
        aborted.addAll(results);
    }

    public synchronized List<Call> calls() {
        return List.copyOf(calls);
    }

    public synchronized List<Call> calls(String what) {
        return calls.stream().filter(c -> c.what().equals(what)).toList();
    }

    public synchronized List<byte[]> aborted() {
        return List.copyOf(aborted);
    }
}
