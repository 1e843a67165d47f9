package dev.tributary.planner;

import dev.tributary.common.time.Clock;
import dev.tributary.planner.advice.Recommender;
import dev.tributary.planner.sim.SimulationResult;
import dev.tributary.planner.sim.SimulationSettings;
import dev.tributary.planner.sim.TieringSimulator;
import dev.tributary.planner.workload.Workload;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The tiering advisor (T44): predicts what each table's lake lag will really be by running the
 * coordinator's own logic on a workload in virtual time, and suggests changes whose effect it has
 * simulated the same way.
 */
public final class TieringPlanner {
    private TieringPlanner() {}

    /** One simulation of the workload as it is. */
    public static SimulationResult predict(Workload workload, SimulationSettings settings) {
        return new TieringSimulator(workload, settings).run();
    }

    /**
     * The prediction and, if {@code recommend}, the changes that make missing tables meet their lag
     * targets. Every variant runs with the same settings and seed as the prediction.
     */
    public static PlanReport plan(
            Workload workload, SimulationSettings settings, boolean recommend) {
        long t0 = Clock.system().nanoTime();
        AtomicInteger runs = new AtomicInteger(1);
        SimulationResult prediction = predict(workload, settings);
        List<dev.tributary.planner.advice.Recommendation> recs = List.of();
        if (recommend) {
            recs =
                    new Recommender(
                                    workload,
                                    prediction,
                                    w -> {
                                        runs.incrementAndGet();
                                        return predict(w, settings);
                                    })
                            .recommend();
        }
        return new PlanReport(
                workload,
                settings,
                prediction,
                recs,
                runs.get(),
                (Clock.system().nanoTime() - t0) / 1_000_000);
    }
}
