package dev.tributary.tiering.enumerate;

import dev.tributary.tiering.api.Attempt;
import dev.tributary.tiering.api.MaintenanceAttempt;
import dev.tributary.tiering.api.MaintenanceCommit;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.event.CompactionEvent;
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

    record CompactionSent(int subtask, CompactionEvent event) {}

    record CompactionFailure(MaintenanceAttempt attempt, String reason, List<byte[]> discarded) {}

    int tableRequests;
    final List<Boolean> acceptCompaction = new ArrayList<>();
    final List<List<Attempt>> heartbeats = new ArrayList<>();
    final List<List<MaintenanceAttempt>> compactionHeartbeats = new ArrayList<>();
    final List<CompactionSent> compactionEvents = new ArrayList<>();
    final Map<MaintenanceAttempt, MaintenanceCommit> compactionCommits = new LinkedHashMap<>();
    final List<CompactionFailure> compactionFailures = new ArrayList<>();
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
    public void sendToReader(int subtask, CompactionEvent event) {
        compactionEvents.add(new CompactionSent(subtask, event));
    }

    @Override
    public void requestTable(boolean accept) {
        tableRequests++;
        acceptCompaction.add(accept);
    }

    @Override
    public void heartbeat(List<Attempt> inFlight, List<MaintenanceAttempt> compactions) {
        heartbeats.add(inFlight);
        compactionHeartbeats.add(compactions);
    }

    @Override
    public void commitCompaction(MaintenanceAttempt attempt, MaintenanceCommit commit) {
        compactionCommits.put(attempt, commit);
    }

    @Override
    public void reportCompactionFailed(
            MaintenanceAttempt attempt, String reason, List<byte[]> discarded) {
        compactionFailures.add(new CompactionFailure(attempt, reason, discarded));
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
