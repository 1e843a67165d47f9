package dev.tributary.coordinator.tiering;

import dev.tributary.coordinator.maintenance.MaintenanceAttempt;
import dev.tributary.coordinator.maintenance.MaintenanceGrant;
import java.util.List;
import java.util.Optional;

/**
 * The coordinator's answer to a heartbeat.
 *
 * @param acks one per entry of the request's {@code inFlight} and {@code reports}, in that order
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
public record HeartbeatResponse(
        List<TableAck> acks,
        List<TableAttempt> forceFinish,
        RoundPlan plan,
        List<MaintenanceAttempt> fencedMaintenance,
        MaintenanceGrant maintenance) {
    public HeartbeatResponse {
        acks = List.copyOf(acks);
        forceFinish = List.copyOf(forceFinish);
        fencedMaintenance = List.copyOf(fencedMaintenance);
        if (plan != null && maintenance != null) {
            throw new IllegalArgumentException("a heartbeat answers with a plan or a grant");
        }
    }

    /** An answer without maintenance. */
    public HeartbeatResponse(List<TableAck> acks, List<TableAttempt> forceFinish, RoundPlan plan) {
        this(acks, forceFinish, plan, List.of(), null);
    }

    public Optional<RoundPlan> roundPlan() {
        return Optional.ofNullable(plan);
    }

    public Optional<MaintenanceGrant> maintenanceGrant() {
        return Optional.ofNullable(maintenance);
    }

    /** The same answer with a plan. */
    HeartbeatResponse withPlan(RoundPlan p) {
        return new HeartbeatResponse(acks, forceFinish, p, fencedMaintenance, null);
    }

    /** The same answer with a compaction grant. */
    HeartbeatResponse withMaintenance(MaintenanceGrant g) {
        return new HeartbeatResponse(acks, forceFinish, null, fencedMaintenance, g);
    }
}
