package dev.tributary.tiering.commit;

import dev.tributary.tiering.service.CommitRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides when each finished round may start its commit. In {@link CommitOrder#COMPLETION} order a
 * round starts at once unless the same table is still committing (one commit at a time per table,
 * T24); in {@link CommitOrder#ASSIGNMENT} order a round waits until every attempt assigned before
 * it has committed or gone away (T25). Plain logic: the caller runs the commits.
 */
public final class CommitSequencer {
    private final CommitOrder order;

    /** Attempts not yet committed or abandoned, in assignment order. */
    private final Set<Attempt> open = new LinkedHashSet<>();

    private final Map<Attempt, CommitRequest> ready = new HashMap<>();
    private final Set<Attempt> running = new HashSet<>();

    public CommitSequencer(CommitOrder order) {
        this.order = order;
    }

    /** The job was granted this attempt. */
    public void assigned(Attempt attempt) {
        if (!open.add(attempt)) {
            throw new IllegalStateException(attempt + " was already assigned");
        }
    }

    /** The attempt's round ended reading; returns the commits to start now. */
    public List<CommitRequest> ready(Attempt attempt, CommitRequest request) {
        if (!open.contains(attempt) || running.contains(attempt)) {
            throw new IllegalStateException(attempt + " is not waiting for a commit");
        }
        ready.put(attempt, request);
        return startable();
    }

    /** The attempt's commit ended (committed, fenced or failed); returns commits to start now. */
    public List<CommitRequest> finished(Attempt attempt) {
        if (!running.remove(attempt)) {
            throw new IllegalStateException(attempt + " has no running commit");
        }
        open.remove(attempt);
        return startable();
    }

    /** The attempt ended without a commit (failed or stale); returns commits to start now. */
    public List<CommitRequest> abandoned(Attempt attempt) {
        if (running.contains(attempt)) {
            throw new IllegalStateException(attempt + " is committing; wait for it to finish");
        }
        ready.remove(attempt);
        open.remove(attempt);
        return startable();
    }

    public boolean isOpen(Attempt attempt) {
        return open.contains(attempt);
    }

    private List<CommitRequest> startable() {
        List<CommitRequest> start = new ArrayList<>();
        if (order == CommitOrder.ASSIGNMENT) {
            if (running.isEmpty() && !open.isEmpty()) {
                Attempt head = open.iterator().next();
                CommitRequest r = ready.remove(head);
                if (r != null) {
                    running.add(head);
                    start.add(r);
                }
            }
            return start;
        }
        Set<Long> busyTables = new HashSet<>();
        running.forEach(a -> busyTables.add(a.tableId()));
        for (Attempt a : open) {
            CommitRequest r = ready.get(a);
            if (r != null && busyTables.add(a.tableId())) {
                ready.remove(a);
                running.add(a);
                start.add(r);
            }
        }
        return start;
    }
}
