package dev.tributary.planner;

import dev.tributary.planner.advice.Recommendation;
import dev.tributary.planner.sim.SimulationResult;
import dev.tributary.planner.sim.SimulationSettings;
import dev.tributary.planner.workload.Workload;
import java.util.List;

/**
 * A plan: the predicted figures of a workload and the changes whose effect was simulated.
 *
 * @param workload what was simulated
 * @param settings how
 * @param prediction the simulation of {@code workload} as it is
 * @param recommendations changes, cheapest kind first (empty when every table meets its target or
 *     none was asked for)
 * @param simulations how many simulations the plan ran
 * @param computeMillis real time the plan took
 */
public record PlanReport(
        Workload workload,
        SimulationSettings settings,
        SimulationResult prediction,
        List<Recommendation> recommendations,
        int simulations,
        long computeMillis) {

    public PlanReport {
        recommendations = List.copyOf(recommendations);
    }

    public boolean allMet() {
        return prediction.tables().stream().allMatch(SimulationResult.TableOutcome::met);
    }
}
