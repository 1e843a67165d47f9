package dev.tributary.coordinator.tiering;

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
 */
public record HeartbeatResponse(
        List<TableAck> acks, List<TableAttempt> forceFinish, RoundPlan plan) {
    public HeartbeatResponse {
        acks = List.copyOf(acks);
        forceFinish = List.copyOf(forceFinish);
    }

    public Optional<RoundPlan> roundPlan() {
        return Optional.ofNullable(plan);
    }

    /** The same answer with a plan. */
    HeartbeatResponse withPlan(RoundPlan p) {
        return new HeartbeatResponse(acks, forceFinish, p);
    }
}
