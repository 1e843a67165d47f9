package dev.tributary.coordinator.cluster;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TableBucket;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bucket states the servers report in their heartbeats (T49, plan step 4): per server, the
 * latest state of each bucket its current instance reported. With one copy per bucket a coordinator
 * on another server learns a bucket's end offset and newest KV snapshot only this way.
 *
 * <p>Rules: the parts of a full report replace the server's earlier set once the last part arrived
 * (a bucket missing from it is forgotten); a delta updates the buckets it names; a report from a
 * new instance of a server (a restart) drops the states of the instance it replaced; the states of
 * an expired server are kept but {@linkplain Reported#stale() stale}: a round may be planned up to
 * what it last reported, never beyond. A delta whose end offset goes backwards for the same
 * instance is refused as a whole; a full report is the instance's whole truth and may go back (the
 * server sends one when its copy of a bucket was deleted and made again: moved away and back). A
 * report that would make a server hold more than {@link #MAX_BUCKETS_PER_SERVER} buckets is refused
 * (bounded memory).
 *
 * <p>Pure logic, not thread-safe: the coordinator runs it on its event loop.
 */
public final class ReportedBucketStates {
    private static final Logger LOG = LoggerFactory.getLogger(ReportedBucketStates.class);

    /** Most buckets remembered per server; a report beyond it is refused. */
    public static final int MAX_BUCKETS_PER_SERVER = 1 << 18;

    private final int maxBucketsPerServer;
    private final Map<Integer, Reporter> servers = new TreeMap<>();

    public ReportedBucketStates() {
        this(MAX_BUCKETS_PER_SERVER);
    }

    /** With a smaller bound, for tests. */
    ReportedBucketStates(int maxBucketsPerServer) {
        this.maxBucketsPerServer = maxBucketsPerServer;
    }

    /**
     * A bucket state and whether its server has expired since it was reported.
     *
     * @param bucket the last reported state
     * @param stale whether the reporting server is expired (its state may be behind the bucket's)
     */
    public record Reported(ReportedBucket bucket, boolean stale) {}

    /**
     * Applies the report of an accepted heartbeat of {@code instanceId} of server {@code serverId}.
     *
     * @return whether the server should send a full report next: a delta arrived while this
     *     coordinator holds no full report of that instance (it is new, or the instance restarted)
     * @throws InvalidInputException when a delta's end offset goes backwards, a bucket appears
     *     twice, a full report's part is out of order or the server would hold too many buckets;
     *     nothing of the report is applied then
     */
    public boolean report(int serverId, String instanceId, BucketReport report) {
        Reporter r = servers.get(serverId);
        if (r == null || !r.instanceId.equals(instanceId)) {
            if (r != null) {
                LOG.info(
                        "server {} instance {} replaces instance {}: its {} reported buckets are"
                                + " dropped",
                        serverId,
                        instanceId,
                        r.instanceId,
                        r.states.size());
            }
            r = new Reporter(instanceId);
            servers.put(serverId, r);
        }
        r.stale = false;
        check(serverId, r, report);
        if (report.full() && report.part() == 0) {
            r.fullSeen = new HashSet<>();
        }
        for (ReportedBucket b : report.buckets()) {
            ReportedBucket old = r.states.put(b.key(), b);
            long before = old == null ? 0 : old.endOffset();
            if (b.endOffset() > before && b.partitionId() != TableBucket.NO_PARTITION) {
                r.changedPartitions
                        .computeIfAbsent(b.tableId(), t -> new HashSet<>())
                        .add(b.partitionId());
            }
            if (report.full()) {
                r.fullSeen.add(b.key());
            }
        }
        if (report.full()) {
            r.nextPart = report.part() + 1;
            if (report.last()) {
                r.states.keySet().retainAll(r.fullSeen);
                r.fullSeen = null;
                r.complete = true;
            }
        }
        return !report.full() && !r.complete;
    }

    private void check(int serverId, Reporter r, BucketReport report) {
        if (report.full()
                && report.part() > 0
                && (r.fullSeen == null || report.part() != r.nextPart)) {
            r.fullSeen = null;
            throw new InvalidInputException(
                    "part "
                            + report.part()
                            + " of a full bucket report of server "
                            + serverId
                            + " arrived out of order; resend the full report from part 0");
        }
        Set<ReportedBucket.Key> keys = new HashSet<>();
        int added = 0;
        for (ReportedBucket b : report.buckets()) {
            if (!keys.add(b.key())) {
                throw new InvalidInputException(
                        "bucket " + b.key() + " appears twice in one report of server " + serverId);
            }
            ReportedBucket old = r.states.get(b.key());
            if (old == null) {
                added++;
            } else if (!report.full() && b.endOffset() < old.endOffset()) {
                LOG.warn(
                        "refusing a report of server {} instance {}: the end offset of {} went"
                                + " back from {} to {}",
                        serverId,
                        r.instanceId,
                        b.key(),
                        old.endOffset(),
                        b.endOffset());
                throw new InvalidInputException(
                        "the end offset of "
                                + b.key()
                                + " went back from "
                                + old.endOffset()
                                + " to "
                                + b.endOffset()
                                + " for the same instance of server "
                                + serverId);
            }
        }
        if ((long) r.states.size() + added > maxBucketsPerServer) {
            throw new InvalidInputException(
                    "server "
                            + serverId
                            + " would report more than "
                            + maxBucketsPerServer
                            + " buckets");
        }
    }

    /** Marks the states of the servers that expired just now as stale until they report again. */
    public void markStale(Collection<Integer> expired) {
        for (int id : expired) {
            Reporter r = servers.get(id);
            if (r != null) {
                r.stale = true;
            }
        }
    }

    /** Forgets the servers that are no longer registered. */
    public void retainServers(Collection<Integer> registered) {
        servers.keySet().retainAll(Set.copyOf(registered));
    }

    /** The last reported state of {@code key} by server {@code serverId}, if it reported one. */
    public Optional<Reported> state(int serverId, ReportedBucket.Key key) {
        Reporter r = servers.get(serverId);
        if (r == null) {
            return Optional.empty();
        }
        ReportedBucket b = r.states.get(key);
        return b == null ? Optional.empty() : Optional.of(new Reported(b, r.stale));
    }

    /** Every state server {@code serverId} reported, ordered by table, partition and bucket. */
    public List<ReportedBucket> states(int serverId) {
        Reporter r = servers.get(serverId);
        if (r == null) {
            return List.of();
        }
        List<ReportedBucket> out = new ArrayList<>(r.states.values());
        out.sort(
                Comparator.comparingLong(ReportedBucket::tableId)
                        .thenComparingLong(ReportedBucket::partitionId)
                        .thenComparingInt(ReportedBucket::bucket));
        return out;
    }

    /** How many buckets each server that reported holds, by server id. */
    public Map<Integer, Integer> reportedCounts() {
        Map<Integer, Integer> out = new TreeMap<>();
        servers.forEach((id, r) -> out.put(id, r.states.size()));
        return out;
    }

    /** Whether server {@code serverId} is expired since its last report. */
    public boolean stale(int serverId) {
        Reporter r = servers.get(serverId);
        return r != null && r.stale;
    }

    /**
     * The partitions of {@code tableId} whose end offset server {@code serverId} reported to grow
     * since the last call; forgotten then (like the store's own changed partitions).
     */
    public Set<Long> drainChangedPartitions(int serverId, long tableId) {
        Reporter r = servers.get(serverId);
        if (r == null) {
            return Set.of();
        }
        Set<Long> changed = r.changedPartitions.remove(tableId);
        return changed == null ? Set.of() : new TreeSet<>(changed);
    }

    /** The ids of the servers whose states are held. */
    public Set<Integer> reporters() {
        return Set.copyOf(servers.keySet());
    }

    private static final class Reporter {
        final String instanceId;
        final Map<ReportedBucket.Key, ReportedBucket> states = new HashMap<>();
        final Map<Long, Set<Long>> changedPartitions = new HashMap<>();

        /** A full report of this instance arrived whole. */
        boolean complete;

        /** The buckets of the full report whose parts are arriving, else null. */
        Set<ReportedBucket.Key> fullSeen;

        int nextPart;
        boolean stale;

        Reporter(String instanceId) {
            this.instanceId = instanceId;
        }
    }
}
