package dev.tributary.planner.sim;

import dev.tributary.common.exception.InvalidInputException;
import java.time.Duration;

/**
 * How long and how a simulation runs.
 *
 * @param horizon virtual time the jobs run, from time 0
 * @param warmup the figures ignore the run's start up to this; {@code null} for automatic: until
 *     every table has committed twice (its first round and one in the rhythm of the others), at
 *     most a third of the horizon
 * @param seed seeds the jobs' split shuffles (T2)
 */
public record SimulationSettings(Duration horizon, Duration warmup, long seed) {

    public static final SimulationSettings DEFAULT =
            new SimulationSettings(Duration.ofHours(1), null, 1);

    public SimulationSettings {
        if (horizon == null || horizon.isNegative() || horizon.isZero()) {
            throw new InvalidInputException("the horizon must be > 0");
        }
        if (warmup != null && (warmup.isNegative() || warmup.compareTo(horizon) >= 0)) {
            throw new InvalidInputException(
                    "the warm-up must be >= 0 and shorter than the horizon " + horizon);
        }
    }

    /**
     * Settings for a workload: a horizon of twenty freshness intervals of its slowest table, at
     * least an hour and at most a day, so every table runs many rounds after the warm-up.
     */
    public static SimulationSettings forWorkload(dev.tributary.planner.workload.Workload w) {
        long maxFreshness = 0;
        for (dev.tributary.planner.workload.TableLoad t : w.tables()) {
            maxFreshness = Math.max(maxFreshness, t.freshness().toMillis());
        }
        long horizon = Math.max(3_600_000L, Math.min(86_400_000L, 20 * maxFreshness));
        return new SimulationSettings(Duration.ofMillis(horizon), null, DEFAULT.seed());
    }

    public SimulationSettings withHorizon(Duration h) {
        return new SimulationSettings(h, warmup, seed);
    }

    public SimulationSettings withSeed(long s) {
        return new SimulationSettings(horizon, warmup, s);
    }
}
