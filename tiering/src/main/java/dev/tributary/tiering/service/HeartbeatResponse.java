package dev.tributary.tiering.service;

import java.util.List;

/**
 * The coordinator's answer to a heartbeat.
 *
 * @param staleAttempts attempts the coordinator no longer treats as current (timed out, failed,
 *     reassigned); the job abandons them
 * @param forceFinish attempts the coordinator wants force-finished now (T13), on top of the job's
 *     own freshness ceiling
 */
public record HeartbeatResponse(
        List<InFlightTable> staleAttempts, List<InFlightTable> forceFinish) {
    public HeartbeatResponse {
        staleAttempts = List.copyOf(staleAttempts);
        forceFinish = List.copyOf(forceFinish);
    }

    public static HeartbeatResponse ok() {
        return new HeartbeatResponse(List.of(), List.of());
    }
}
