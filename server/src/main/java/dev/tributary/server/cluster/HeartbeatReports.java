package dev.tributary.server.cluster;

import dev.tributary.coordinator.cluster.BucketReport;
import dev.tributary.coordinator.cluster.ReportedBucket;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a server's next heartbeat reports about its buckets (T49), so a heartbeat stays small: a
 * full report (every bucket) to a coordinator incarnation that has none from this process yet, then
 * only the buckets whose state changed since the last accepted heartbeat. A failed heartbeat
 * acknowledges nothing, so its changes are sent again; an accepted answer from another coordinator
 * incarnation than the one holding this server's states, or one that asks for it, makes the next
 * report full.
 *
 * <p>A report larger than {@link BucketReport#MAX_BUCKETS_PER_REQUEST} is split into parts that the
 * heartbeater sends one after the other in the same beat, stopping at the first failure; a full
 * report counts only once its last part was accepted by one incarnation.
 *
 * <p>Pure logic, not thread-safe: the heartbeater's timer thread uses it.
 */
final class HeartbeatReports {
    private static final Comparator<ReportedBucket> ORDER =
            Comparator.comparingLong(ReportedBucket::tableId)
                    .thenComparingLong(ReportedBucket::partitionId)
                    .thenComparingInt(ReportedBucket::bucket);

    private final int maxPerRequest;

    /** What the coordinator {@link #incarnation} holds of this server's buckets. */
    private Map<ReportedBucket.Key, ReportedBucket> acknowledged = new HashMap<>();

    private long incarnation = -1;
    private boolean fullNeeded = true;

    /** The parts of the full report being sent, and the incarnation that accepted its first. */
    private Map<ReportedBucket.Key, ReportedBucket> fullSoFar;

    private long fullIncarnation;

    HeartbeatReports() {
        this(BucketReport.MAX_BUCKETS_PER_REQUEST);
    }

    /** With smaller parts, for tests. */
    HeartbeatReports(int maxPerRequest) {
        this.maxPerRequest = maxPerRequest;
    }

    /**
     * The requests of the next heartbeat, at least one (a heartbeat without changes is an empty
     * delta).
     *
     * @param current the state of every bucket the server holds now
     */
    List<BucketReport> next(Collection<ReportedBucket> current) {
        List<ReportedBucket> send = new ArrayList<>();
        if (fullNeeded) {
            send.addAll(current);
        } else {
            Set<ReportedBucket.Key> held = new HashSet<>();
            for (ReportedBucket b : current) {
                held.add(b.key());
                if (!b.equals(acknowledged.get(b.key()))) {
                    send.add(b);
                }
            }
            // a copy deleted here (its table dropped, or its buckets moved to other servers), or
            // deleted and made again (moved away and back): a full report makes the coordinator
            // forget what it does not name and replace what went back, which a delta cannot
            if (!held.containsAll(acknowledged.keySet())
                    || send.stream().anyMatch(this::wentBack)) {
                fullNeeded = true;
                send = new ArrayList<>(current);
            }
        }
        send.sort(ORDER);
        List<BucketReport> parts = new ArrayList<>();
        for (int from = 0; from < send.size() || parts.isEmpty(); from += maxPerRequest) {
            List<ReportedBucket> chunk =
                    send.subList(from, Math.min(send.size(), from + maxPerRequest));
            if (fullNeeded) {
                boolean last = from + maxPerRequest >= send.size();
                parts.add(new BucketReport(true, parts.size(), last, chunk));
            } else {
                parts.add(BucketReport.delta(chunk));
            }
        }
        return parts;
    }

    /**
     * The coordinator accepted {@code part}.
     *
     * @param coordinatorIncarnation the incarnation that answered
     * @param sendFull whether it asked for a full report
     */
    void accepted(BucketReport part, long coordinatorIncarnation, boolean sendFull) {
        if (part.full()) {
            if (part.part() == 0) {
                fullSoFar = new HashMap<>();
                fullIncarnation = coordinatorIncarnation;
            }
            if (fullSoFar == null || fullIncarnation != coordinatorIncarnation) {
                // another coordinator answered mid-report: start over next beat
                fullSoFar = null;
                return;
            }
            part.buckets().forEach(b -> fullSoFar.put(b.key(), b));
            if (part.last()) {
                acknowledged = fullSoFar;
                fullSoFar = null;
                incarnation = coordinatorIncarnation;
                fullNeeded = sendFull;
            }
            return;
        }
        if (coordinatorIncarnation != incarnation || sendFull) {
            fullNeeded = true;
            return;
        }
        part.buckets().forEach(b -> acknowledged.put(b.key(), b));
    }

    private boolean wentBack(ReportedBucket b) {
        ReportedBucket before = acknowledged.get(b.key());
        return before != null && b.endOffset() < before.endOffset();
    }

    /** Whether the next report is full. */
    boolean fullNeeded() {
        return fullNeeded;
    }
}
