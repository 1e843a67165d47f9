package dev.tributary.tiering.enumerate;

import dev.tributary.common.id.LakeBucket;
import dev.tributary.tiering.api.MaintenanceAttempt;
import dev.tributary.tiering.api.MaintenanceGrant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The job's one compaction grant in progress (T38): (partition, bucket) units still to compact,
 * which reader compacts which unit, and the results so far. Scheduler thread only.
 */
final class Compaction {
    /** Where the grant stands. */
    enum State {
        COMPACTING,
        COMMITTING
    }

    private final MaintenanceGrant grant;
    private final long deadlineNanos;
    private final Deque<LakeBucket> pending;
    private final Map<Integer, LakeBucket> running = new HashMap<>();
    private final List<byte[]> results = new ArrayList<>();
    private State state = State.COMPACTING;

    Compaction(MaintenanceGrant grant, long nowNanos) {
        this.grant = grant;
        this.deadlineNanos = nowNanos + grant.timeout().toNanos();
        this.pending = new ArrayDeque<>(grant.units());
    }

    MaintenanceGrant grant() {
        return grant;
    }

    MaintenanceAttempt attempt() {
        return grant.attempt();
    }

    State state() {
        return state;
    }

    void committing() {
        state = State.COMMITTING;
    }

    boolean matches(long tableId, long maintenanceId) {
        return grant.tableId() == tableId && grant.maintenanceId() == maintenanceId;
    }

    boolean hasPending() {
        return state == State.COMPACTING && !pending.isEmpty();
    }

    int runningCount() {
        return running.size();
    }

    boolean runsOn(int subtask) {
        return running.containsKey(subtask);
    }

    /** Hands the next unit to {@code subtask}. */
    LakeBucket start(int subtask) {
        LakeBucket unit = pending.poll();
        running.put(subtask, unit);
        return unit;
    }

    /** The unit {@code subtask} compacted, if it was compacting one of this grant. */
    boolean ended(int subtask, LakeBucket unit) {
        if (!unit.equals(running.get(subtask))) {
            return false;
        }
        running.remove(subtask);
        return true;
    }

    void addResult(byte[] result) {
        results.add(result);
    }

    List<byte[]> results() {
        return List.copyOf(results);
    }

    boolean allEnded() {
        return pending.isEmpty() && running.isEmpty();
    }

    Map<Integer, LakeBucket> running() {
        return Map.copyOf(running);
    }

    boolean deadlinePassed(long nowNanos) {
        return nowNanos - deadlineNanos >= 0;
    }
}
