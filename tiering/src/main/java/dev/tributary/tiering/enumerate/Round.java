package dev.tributary.tiering.enumerate;

import dev.tributary.tiering.api.Attempt;
import dev.tributary.tiering.api.RoundPlan;
import dev.tributary.tiering.event.SplitResultEvent;
import dev.tributary.tiering.split.TieringSplit;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The enumerator's record of one round of one table: which splits are queued, held by which reader,
 * finished or skipped, and where the round is in its life. Not thread safe; owned by the enumerator
 * thread.
 */
final class Round {

    /** A round's life in the job. */
    enum State {
        /** Splits are queued or being read. */
        READING,
        /** Every split ended; the commit is queued or running. */
        COMMITTING,
        /** Committed, fenced, failed or abandoned: the round is over. */
        DONE;

        boolean canMoveTo(State next) {
            return switch (this) {
                case READING -> next == COMMITTING || next == DONE;
                case COMMITTING -> next == DONE;
                case DONE -> false;
            };
        }
    }

    private final RoundPlan plan;
    private final List<TieringSplit> splits;

    /** When the job received the plan ({@link dev.tributary.common.time.Clock#nanoTime()}). */
    private final long startNanos;

    private final Map<String, TieringSplit> byId = new HashMap<>();
    private final Set<String> queued = new HashSet<>();
    private final Map<String, Integer> holders = new HashMap<>();
    private final Set<String> skipped = new HashSet<>();
    private final Map<String, SplitResultEvent> results = new LinkedHashMap<>();
    private State state = State.READING;
    private boolean forceFinished;

    Round(RoundPlan plan, List<TieringSplit> splits, long startNanos) {
        this.plan = plan;
        this.splits = List.copyOf(splits);
        this.startNanos = startNanos;
        splits.forEach(
                s -> {
                    queued.add(s.splitId());
                    byId.put(s.splitId(), s);
                });
    }

    RoundPlan plan() {
        return plan;
    }

    Attempt attempt() {
        return plan.attempt();
    }

    /** Lake write results of the splits that ended with files: what a failed round leaves. */
    List<byte[]> writtenResults() {
        List<byte[]> out = new java.util.ArrayList<>();
        for (SplitResultEvent r : results.values()) {
            if (r.writeResult() != null) {
                out.add(r.writeResult());
            }
        }
        return out;
    }

    List<TieringSplit> splits() {
        return splits;
    }

    State state() {
        return state;
    }

    void moveTo(State next) {
        if (!state.canMoveTo(next)) {
            throw new IllegalStateException(
                    "round "
                            + plan.roundId()
                            + " of "
                            + plan.path()
                            + ": "
                            + state
                            + " -> "
                            + next
                            + " is not a legal transition");
        }
        state = next;
    }

    boolean matches(long epoch, long roundId) {
        return plan.epoch() == epoch && plan.roundId() == roundId;
    }

    /** Whether the round's ceiling (its plan's freshness, T13) passed since the job got it. */
    boolean deadlinePassed(long nowNanos) {
        return elapsed(nowNanos).compareTo(plan.freshness()) >= 0;
    }

    private Duration elapsed(long nowNanos) {
        return Duration.ofNanos(nowNanos - startNanos);
    }

    /**
     * True when the round was force-finished {@code stuckAfter} (at least a freshness) ago and only
     * log splits are still open: those stop at their next step, so their reader is lost or stuck.
     * The floor keeps a short-freshness table on a busy machine, whose readers need a few seconds
     * to close their lake files, from failing rounds that would have finished.
     */
    boolean stuck(long nowNanos, Duration stuckAfter) {
        Duration ceiling = plan.freshness();
        Duration grace = ceiling.compareTo(stuckAfter) >= 0 ? ceiling : stuckAfter;
        return forceFinished
                && elapsed(nowNanos).compareTo(ceiling.plus(grace)) >= 0
                && !holders.isEmpty()
                && holders.keySet().stream().noneMatch(id -> byId.get(id).isSnapshot());
    }

    boolean forceFinished() {
        return forceFinished;
    }

    void markForceFinished() {
        forceFinished = true;
    }

    void assigned(TieringSplit split, int subtask) {
        if (!queued.remove(split.splitId())) {
            throw new IllegalStateException("split " + split + " is not queued");
        }
        holders.put(split.splitId(), subtask);
    }

    void skipped(TieringSplit split) {
        if (!queued.remove(split.splitId())) {
            throw new IllegalStateException("split " + split + " is not queued");
        }
        skipped.add(split.splitId());
    }

    /** Records a split's end; false when the split is not held by a reader (duplicate, unknown). */
    boolean finished(SplitResultEvent result) {
        if (holders.remove(result.splitId()) == null) {
            return false;
        }
        results.put(result.splitId(), result);
        return true;
    }

    /** Subtask holding each started, unfinished split. */
    Map<String, Integer> holders() {
        return holders;
    }

    boolean holdsSplitOn(int subtask) {
        return holders.containsValue(subtask);
    }

    boolean allSplitsEnded() {
        return queued.isEmpty() && holders.isEmpty();
    }

    Set<String> skippedSplits() {
        return skipped;
    }

    Map<String, SplitResultEvent> results() {
        return results;
    }
}
