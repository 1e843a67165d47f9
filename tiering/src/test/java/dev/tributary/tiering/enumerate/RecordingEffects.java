package dev.tributary.tiering.enumerate;

import dev.tributary.client.tiering.Attempt;
import dev.tributary.client.tiering.RoundCommit;
import dev.tributary.tiering.event.RoundControlEvent;
import dev.tributary.tiering.split.TieringSplit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Records what the scheduler asked for; tests answer through the scheduler's on* methods. */
final class RecordingEffects implements EnumeratorEffects {
    record Assignment(int subtask, TieringSplit split) {}

    record Control(int subtask, RoundControlEvent event) {}

    final List<Assignment> assignments = new ArrayList<>();
    final List<Control> controls = new ArrayList<>();
    int tableRequests;
    final List<List<Attempt>> heartbeats = new ArrayList<>();
    final Map<Attempt, RoundCommit> commits = new LinkedHashMap<>();
    final Map<Attempt, String> failures = new LinkedHashMap<>();
    final Map<Attempt, List<byte[]>> discarded = new LinkedHashMap<>();

    @Override
    public void assignSplit(int subtask, TieringSplit split) {
        assignments.add(new Assignment(subtask, split));
    }

    @Override
    public void sendToReader(int subtask, RoundControlEvent event) {
        controls.add(new Control(subtask, event));
    }

    @Override
    public void requestTable() {
        tableRequests++;
    }

    @Override
    public void heartbeat(List<Attempt> inFlight) {
        heartbeats.add(inFlight);
    }

    @Override
    public void commit(Attempt attempt, RoundCommit request) {
        commits.put(attempt, request);
    }

    @Override
    public void reportFailed(Attempt attempt, String reason, List<byte[]> results) {
        failures.put(attempt, reason);
        discarded.put(attempt, results);
    }

    List<TieringSplit> splitsOf(int subtask) {
        return assignments.stream()
                .filter(a -> a.subtask() == subtask)
                .map(Assignment::split)
                .toList();
    }

    Assignment last() {
        return assignments.get(assignments.size() - 1);
    }
}
