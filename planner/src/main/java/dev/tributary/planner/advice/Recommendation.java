package dev.tributary.planner.advice;

import dev.tributary.planner.sim.SimulationResult;
import dev.tributary.planner.workload.Workload;
import java.util.List;

/**
 * One change that the planner simulated before suggesting it.
 *
 * @param kind what kind of change
 * @param change what to change, in words ("parallelism of job-1: 4 -> 6")
 * @param how how to apply it (a command or option), and what it costs
 * @param recreate whether applying it means re-creating a table (bucket count)
 * @param variant the workload with the change
 * @param result the simulation of {@code variant}
 * @param nowMet tables that missed their lag target and meet it with the change
 * @param nowMissed tables that met it and miss it with the change
 * @param stillMissed tables that miss it with and without the change
 */
public record Recommendation(
        Kind kind,
        String change,
        String how,
        boolean recreate,
        Workload variant,
        SimulationResult result,
        List<String> nowMet,
        List<String> nowMissed,
        List<String> stillMissed) {

    public Recommendation {
        nowMet = List.copyOf(nowMet);
        nowMissed = List.copyOf(nowMissed);
        stillMissed = List.copyOf(stillMissed);
    }

    /** Kinds of changes, cheapest first. */
    public enum Kind {
        /** {@code tiering.queue.policy=deadline}. */
        POLICY,
        /** A looser {@code table.datalake.freshness} for a table that cannot meet its own. */
        FRESHNESS,
        /** More readers for a job. */
        PARALLELISM,
        /** A table that takes much of a job's readers moves to its own group and job. */
        GROUP,
        /** More buckets for a read-bound table (a re-create). */
        BUCKETS
    }
}
