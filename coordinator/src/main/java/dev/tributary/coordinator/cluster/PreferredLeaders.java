package dev.tributary.coordinator.cluster;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.ConfigOptions;
import dev.tributary.common.config.Configuration;
import dev.tributary.coordinator.runtime.TimerService;
import java.time.Duration;
import java.util.List;
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

    public static final ConfigOption<Integer> IMBALANCE_PERCENT =
            ConfigOptions.key("cluster.preferred-leader.imbalance-percent")
                    .intType()
                    .check(p -> p >= 0 && p <= 100, "must be 0 to 100")
                    .defaultValue(10)
                    .withDescription(
                            "A check hands leaderships back to a server only when more than this"
                                    + " percentage of the replicated buckets it is the first"
                                    + " replica of are led by others (Kafka's"
                                    + " leader.imbalance.per.broker.percentage); 0 hands back"
                                    + " every one.");

    public static final ConfigOption<Integer> MAX_MOVES_PER_CHECK =
            ConfigOptions.key("cluster.preferred-leader.max-moves-per-check")
                    .intType()
                    .check(n -> n > 0, "must be positive")
                    .defaultValue(100)
                    .withDescription(
                            "How many buckets' leaderships one check hands back at most; the rest"
                                    + " wait for the next check. Each move fails the writes in"
                                    + " flight at the old leader (retriably), so a server returning"
                                    + " to a large cluster takes its leaderships back in steps.");

    private final LeaderElections elections;
    private final IntPredicate mayLead;
    private final TimerService timers;
    private final long everyMillis;
    private final int imbalancePercent;
    private final int maxMoves;

    /**
     * @param mayLead whether a server may take a leadership now
     * @param conf read for the options above
     */
    public PreferredLeaders(
            LeaderElections elections,
            IntPredicate mayLead,
            TimerService timers,
            Configuration conf) {
        this.elections = elections;
        this.mayLead = mayLead;
        this.timers = timers;
        this.everyMillis = conf.get(CHECK_INTERVAL).toMillis();
        this.imbalancePercent = conf.get(IMBALANCE_PERCENT);
        this.maxMoves = conf.get(MAX_MOVES_PER_CHECK);
    }

    /** The options above, for validation before a server starts anything. */
    public static List<ConfigOption<?>> options() {
        return List.of(CHECK_INTERVAL, IMBALANCE_PERCENT, MAX_MOVES_PER_CHECK);
    }

    /** Schedules the checks, unless the interval is 0. On the loop. */
    public void start() {
        if (everyMillis > 0) {
            timers.schedule(everyMillis, this::check);
        }
    }

    private void check() {
        try {
            int moved = elections.electPreferredLeaders(mayLead, imbalancePercent, maxMoves);
            if (moved > 0) {
                LOG.info("{} buckets' leaderships went back to their preferred replicas", moved);
            }
        } finally {
            timers.schedule(everyMillis, this::check);
        }
    }
}
