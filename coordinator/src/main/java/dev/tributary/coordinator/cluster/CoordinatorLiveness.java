package dev.tributary.coordinator.cluster;

import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.coordinator.runtime.TimerService;
import dev.tributary.coordinator.store.MetadataStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's side of server liveness (T49): a {@link ServerLiveness} over the servers
 * registered in the metadata, checked for expiry every heartbeat interval. Runs on the
 * coordinator's event loop only (every method and the timer), so it needs no locks.
 *
 * <p>With a {@link ServerProbe} the check runs every half interval, and a server whose heartbeat is
 * half an interval late has its RPC address probed: a refusal means its process is gone while its
 * host lives (a crash, kill -9, an OOM kill), and the server expires then rather than at the
 * heartbeat timeout, so its buckets get new leaders in seconds (T51). Anything else (an accepted
 * connection, no answer) leaves it to the timeout: a paused or partitioned server looks the same as
 * a slow one from here.
 */
public final class CoordinatorLiveness {
    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorLiveness.class);

    private final ServerLiveness tracker;
    private final ReportedBucketStates reported = new ReportedBucketStates();
    private final MetadataStore metadata;
    private final Clock clock;
    private final TimerService timers;
    private final Executor loop;
    private final long checkEveryMillis;
    private final long lateMillis;
    private final ServerProbe probe;

    /** Servers whose probe has not answered yet: one probe per server at a time. */
    private final Set<Integer> probing = new HashSet<>();

    private LeaderElections elections;

    /**
     * The views as of the last heartbeat or check and when they were taken: status pages read them
     * from any thread without a trip through the event loop, which a flood of requests may keep
     * busy for seconds.
     */
    private volatile Published published = new Published(List.of(), Map.of(), 0);

    private record Published(
            List<ServerLivenessView> views, Map<Integer, Integer> reportedBuckets, long atMillis) {}

    /**
     * @param timers the loop's timers
     * @param loop the loop, where probe answers are taken
     * @param interval the servers' heartbeat interval: how often expiry is checked (half of it with
     *     a probe) and how late a heartbeat must be, plus half of it, to probe the server
     * @param timeout the heartbeat timeout
     * @param probe probes late servers' addresses; null for none
     */
    public CoordinatorLiveness(
            MetadataStore metadata,
            Clock clock,
            TimerService timers,
            Executor loop,
            Duration interval,
            Duration timeout,
            ServerProbe probe) {
        this.tracker = new ServerLiveness(timeout);
        this.metadata = metadata;
        this.clock = clock;
        this.timers = timers;
        this.loop = loop;
        this.probe = probe;
        long every = interval.toMillis();
        this.checkEveryMillis = probe == null ? every : Math.max(1, every / 2);
        this.lateMillis = every + every / 2;
    }

    /** Moves replicated buckets' leadership as servers expire and return (T51), from now on. */
    public void useElections(LeaderElections elections) {
        this.elections = elections;
    }

    /**
     * Starts tracking the registered servers (each gets a full timeout from now, as a new
     * coordinator cannot know when they last heartbeat) and the periodic expiry check. On the loop.
     */
    public void start() {
        syncRegistered();
        publish();
        timers.schedule(checkEveryMillis, this::check);
    }

    /**
     * A server's heartbeat and the bucket states it carries, which count only when the heartbeat is
     * accepted; an id not tracked yet is looked up in the registrations first.
     *
     * @throws dev.tributary.common.exception.InvalidInputException when the report is refused
     *     ({@link ReportedBucketStates#report}); the heartbeat itself still counted
     */
    public HeartbeatAnswer heartbeat(int serverId, String instanceId, BucketReport report) {
        if (!tracker.tracks(serverId)) {
            // a server registers after the coordinator started (its own server does too)
            syncRegistered();
        }
        boolean wasAlive =
                tracker.view(serverId, nowMillis())
                        .map(v -> v.state() == LivenessState.ALIVE)
                        .orElse(false);
        HeartbeatOutcome outcome = tracker.heartbeat(serverId, instanceId, nowMillis());
        try {
            if (outcome != HeartbeatOutcome.ACCEPTED) {
                return new HeartbeatAnswer(outcome, false);
            }
            if (!wasAlive && elections != null) {
                elections.onAlive(serverId);
            }
            return new HeartbeatAnswer(outcome, reported.report(serverId, instanceId, report));
        } finally {
            publish();
        }
    }

    /**
     * Instance {@code instanceId} of server {@code serverId} is stopping ({@link
     * ServerLiveness#retire}): expired now, its bucket reports stale, and its leaderships and
     * in-sync memberships moved as after a heartbeat timeout.
     *
     * @return how many buckets' leaders moved away from it, with the outcome
     */
    public StopAnswer retire(int serverId, String instanceId) {
        if (!tracker.tracks(serverId)) {
            syncRegistered();
        }
        HeartbeatOutcome outcome = tracker.retire(serverId, instanceId);
        try {
            if (outcome != HeartbeatOutcome.ACCEPTED) {
                return new StopAnswer(outcome, 0);
            }
            return new StopAnswer(outcome, onExpired(List.of(serverId)));
        } finally {
            publish();
        }
    }

    /** The answer to a stopping server: accepted or why not, and the leaders moved. */
    public record StopAnswer(HeartbeatOutcome outcome, int leadersMoved) {}

    /** The bucket states the servers reported (read and changed on the loop only). */
    public ReportedBucketStates reported() {
        return reported;
    }

    /** Whether the server stopped heartbeating ({@link LivenessState#EXPIRED}) as of now. */
    public boolean expired(int serverId) {
        return tracker.view(serverId, nowMillis())
                .map(v -> v.state() == LivenessState.EXPIRED)
                .orElse(false);
    }

    /** Every registered server's liveness now, in id order. */
    public List<ServerLivenessView> views() {
        syncRegistered();
        return tracker.views(nowMillis());
    }

    private void check() {
        try {
            syncRegistered();
            List<Integer> expired = tracker.expire(nowMillis());
            if (!expired.isEmpty()) {
                onExpired(expired);
            }
            if (probe != null) {
                probeLate();
            }
            publish();
        } finally {
            timers.schedule(checkEveryMillis, this::check);
        }
    }

    private void probeLate() {
        List<ServerLiveness.Late> late = tracker.late(nowMillis(), lateMillis);
        if (late.isEmpty()) {
            return;
        }
        Map<Integer, ServerRegistration> registered;
        try {
            registered = metadata.servers();
        } catch (TributaryException e) {
            return; // as in syncRegistered: the heartbeat timeout still decides
        }
        for (ServerLiveness.Late l : late) {
            ServerRegistration r = registered.get(l.serverId());
            if (r == null || !probing.add(l.serverId())) {
                continue;
            }
            String address = r.rpcAddress();
            probe.probe(address)
                    .whenComplete(
                            (result, e) -> {
                                try {
                                    loop.execute(() -> onProbed(l, address, result));
                                } catch (RetriableException stopped) {
                                    // the coordinator stopped meanwhile
                                }
                            });
        }
    }

    private void onProbed(ServerLiveness.Late late, String address, ServerProbe.Result result) {
        probing.remove(late.serverId());
        if (result != ServerProbe.Result.REFUSED || !tracker.expireUnreachable(late)) {
            return;
        }
        LOG.warn(
                "server {} refused a connection at {} {} ms after its last heartbeat: its process"
                        + " is gone, so it expires now rather than at the heartbeat timeout",
                late.serverId(),
                address,
                nowMillis() - late.lastHeartbeatMillis());
        onExpired(List.of(late.serverId()));
        publish();
    }

    /**
     * Servers that expired just now (timeout, probe or stop): their bucket reports go stale and
     * their leaderships and in-sync memberships move.
     *
     * @return how many buckets' leaders moved away from them
     */
    private int onExpired(List<Integer> expired) {
        reported.markStale(expired);
        return elections == null ? 0 : elections.onExpired(expired);
    }

    /**
     * Every registered server's liveness as of the last heartbeat or expiry check (at most one
     * heartbeat interval old), with the time since each heartbeat counted to now; from any thread.
     */
    public List<ServerLivenessView> published() {
        Published p = published;
        long age = Math.max(0, nowMillis() - p.atMillis());
        List<ServerLivenessView> out = new ArrayList<>(p.views().size());
        for (ServerLivenessView v : p.views()) {
            out.add(
                    new ServerLivenessView(
                            v.serverId(),
                            v.state(),
                            v.instanceId(),
                            v.millisSinceHeartbeat().map(ms -> ms + age)));
        }
        return out;
    }

    /**
     * How many buckets each server reported in its heartbeats, as of the last heartbeat or expiry
     * check; from any thread.
     */
    public Map<Integer, Integer> publishedReportedBuckets() {
        return published.reportedBuckets();
    }

    private void publish() {
        long now = nowMillis();
        published = new Published(tracker.views(now), Map.copyOf(reported.reportedCounts()), now);
    }

    private void syncRegistered() {
        try {
            var registered = metadata.servers().keySet();
            tracker.syncRegistered(registered, nowMillis());
            reported.retainServers(registered);
        } catch (TributaryException e) {
            // the metadata is closing or lost its leadership: keep what is tracked; the server
            // stops on its own in both cases
            LOG.debug("cannot read the registered servers: {}", e.toString());
        }
    }

    private long nowMillis() {
        return clock.nanoTime() / 1_000_000;
    }
}
