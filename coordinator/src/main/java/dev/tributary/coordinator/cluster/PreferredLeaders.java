package dev.tributary.coordinator.cluster;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.ConfigOptions;
import dev.tributary.coordinator.runtime.TimerService;
import java.time.Duration;
import java.util.function.IntPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every {@link #CHECK_INTERVAL}, gives replicated buckets' leaderships back to their preferred
 * replicas ({@link LeaderElections#electPreferredLeaders}), as Kafka's automatic leader rebalance
 * does: a failover moves leaderships to the servers that stayed, and a server that returns and
 * catches up would otherwise only follow until the next failover. Each move fails the writes in
 * flight at the old leader retriably (the client retries at the new one; the idempotent writer adds
 * nothing twice), so it waits for a check rather than following each rejoin at once. Runs on the
 * coordinator's event loop.
 */
public final class PreferredLeaders {
    private static final Logger LOG = LoggerFactory.getLogger(PreferredLeaders.class);

    public static final ConfigOption<Duration> CHECK_INTERVAL =
            ConfigOptions.key("cluster.preferred-leader.check-interval")
                    .durationType()
                    .check(d -> !d.isNegative(), "must not be negative")
                    .defaultValue(Duration.ofSeconds(30))
                    .withDescription(
                            "How often the coordinator hands the leadership of each replicated"
                                    + " bucket back to its first replica once that replica is in"
                                    + " sync, alive and not draining (leaderships spread again"
                                    + " after failovers); 0 never does.");

    private final LeaderElections elections;
    private final IntPredicate mayLead;
    private final TimerService timers;
    private final long everyMillis;

    /**
     * @param mayLead whether a server may take a leadership now
     */
    public PreferredLeaders(
            LeaderElections elections, IntPredicate mayLead, TimerService timers, Duration every) {
        this.elections = elections;
        this.mayLead = mayLead;
        this.timers = timers;
        this.everyMillis = every.toMillis();
    }

    /** Schedules the checks, unless the interval is 0. On the loop. */
    public void start() {
        if (everyMillis > 0) {
            timers.schedule(everyMillis, this::check);
        }
    }

    private void check() {
        try {
            int moved = elections.electPreferredLeaders(mayLead);
            if (moved > 0) {
                LOG.info("{} buckets' leaderships went back to their preferred replicas", moved);
            }
        } finally {
            timers.schedule(everyMillis, this::check);
        }
    }
}
