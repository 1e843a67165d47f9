package dev.tributary.client.tiering;

import java.util.List;
import java.util.Optional;

/**
 * The coordinator's answer to a heartbeat.
 *
 * @param staleAttempts attempts the coordinator no longer treats as current (timed out, failed,
 *     reassigned, table dropped); the job abandons them
 * @param forceFinish attempts whose round ran past its table's freshness by the coordinator's clock
 *     (which follows an ALTER of the freshness during the round): force-finish them now (T13)
 * @param plan the next table's round, when a table was asked for and one was pending
 * @param staleMaintenance compaction grants the coordinator no longer treats as current: the job
 *     stops them and drops their results
 * @param maintenance a compaction grant, when work was asked for with compaction accepted and no
 *     table was pending (T38)
 */
public record HeartbeatResult(
        List<Attempt> staleAttempts,
        List<Attempt> forceFinish,
        Optional<RoundPlan> plan,
        List<MaintenanceAttempt> staleMaintenance,
        Optional<MaintenanceGrant> maintenance) {
    public HeartbeatResult {
        staleAttempts = List.copyOf(staleAttempts);
        forceFinish = List.copyOf(forceFinish);
        staleMaintenance = List.copyOf(staleMaintenance);
    }

    /** A result without maintenance. */
    public HeartbeatResult(
            List<Attempt> staleAttempts, List<Attempt> forceFinish, Optional<RoundPlan> plan) {
        this(staleAttempts, forceFinish, plan, List.of(), Optional.empty());
    }

    public static HeartbeatResult ok() {
        return new HeartbeatResult(List.of(), List.of(), Optional.empty());
    }
}
