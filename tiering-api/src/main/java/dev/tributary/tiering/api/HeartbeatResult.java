package dev.tributary.tiering.api;

import java.util.List;
import java.util.Optional;

/**
 * The coordinator's answer to a heartbeat.
 *
 * @param acks the verdict on the attempts the request named: the coordinator answers one per entry
 *     of the request's {@code inFlight} and {@code reports}, in that order; the wire carries only
 *     the fenced ones, so a job sees an attempt it named and that is absent here as current
 * @param forceFinish in-flight attempts whose round ran past the table's current freshness by the
 *     coordinator's clock: the job force-finishes them now (T13). The coordinator's ceiling counts
 *     from the hand-out and follows an ALTER of the freshness during the round.
 * @param plan a new round if the job asked for a table and one of its group was pending, else
 *     {@code null}
 * @param fencedMaintenance compaction grants named in the request that are no longer current: the
 *     job stops them and drops their results
 * @param maintenance a compaction grant if the job asked for a table, accepted maintenance and no
 *     table of its group was pending, else {@code null} (T38)
 */
public record HeartbeatResult(
        List<TableAck> acks,
        List<Attempt> forceFinish,
        RoundPlan plan,
        List<MaintenanceAttempt> fencedMaintenance,
        MaintenanceGrant maintenance) {
    public HeartbeatResult {
        acks = List.copyOf(acks);
        forceFinish = List.copyOf(forceFinish);
        fencedMaintenance = List.copyOf(fencedMaintenance);
        if (plan != null && maintenance != null) {
            throw new IllegalArgumentException("a heartbeat answers with a plan or a grant");
        }
    }

    /** An answer without maintenance. */
    public HeartbeatResult(List<TableAck> acks, List<Attempt> forceFinish, RoundPlan plan) {
        this(acks, forceFinish, plan, List.of(), null);
    }

    /** An answer that fences nothing and hands out nothing. */
    public static HeartbeatResult ok() {
        return new HeartbeatResult(List.of(), List.of(), null);
    }

    /**
     * The attempts the coordinator no longer treats as current (timed out, failed, reassigned,
     * table dropped): the job abandons them.
     */
    public List<Attempt> staleAttempts() {
        return acks.stream().filter(TableAck::fenced).map(TableAck::attempt).toList();
    }

    public Optional<RoundPlan> roundPlan() {
        return Optional.ofNullable(plan);
    }

    public Optional<MaintenanceGrant> maintenanceGrant() {
        return Optional.ofNullable(maintenance);
    }

    /** The same answer with a plan. */
    public HeartbeatResult withPlan(RoundPlan p) {
        return new HeartbeatResult(acks, forceFinish, p, fencedMaintenance, null);
    }

    /** The same answer with a compaction grant. */
    public HeartbeatResult withMaintenance(MaintenanceGrant g) {
        return new HeartbeatResult(acks, forceFinish, null, fencedMaintenance, g);
    }
}
