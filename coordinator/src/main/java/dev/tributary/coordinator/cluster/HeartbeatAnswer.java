package dev.tributary.coordinator.cluster;

/**
 * The coordinator's answer to a server heartbeat (T49).
 *
 * @param outcome whether the heartbeat counted
 * @param sendFullReport whether the server should send a full bucket report next (the coordinator
 *     holds none from this instance of the server)
 */
public record HeartbeatAnswer(HeartbeatOutcome outcome, boolean sendFullReport) {}
