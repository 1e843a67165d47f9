package dev.tributary.coordinator.tiering;

import java.util.List;
import java.util.Optional;

/**
 * The coordinator's answer to a heartbeat.
 *
 * @param acks one per entry of the request's {@code inFlight} and {@code reports}, in that order
 * @param plan a new round if the job asked for a table and one of its group was pending, else
 *     {@code null}
 */
public record HeartbeatResponse(List<TableAck> acks, RoundPlan plan) {
    public HeartbeatResponse {
        acks = List.copyOf(acks);
    }

    public Optional<RoundPlan> roundPlan() {
        return Optional.ofNullable(plan);
    }
}
