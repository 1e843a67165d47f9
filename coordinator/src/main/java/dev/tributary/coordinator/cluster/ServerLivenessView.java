package dev.tributary.coordinator.cluster;

import java.util.Optional;

/**
 * A registered server's liveness as the coordinator sees it (T49).
 *
 * @param serverId the server's id
 * @param state its state
 * @param instanceId the instance whose heartbeats count, empty before the first heartbeat
 * @param millisSinceHeartbeat time since its last accepted heartbeat, empty before the first
 */
public record ServerLivenessView(
        int serverId,
        LivenessState state,
        Optional<String> instanceId,
        Optional<Long> millisSinceHeartbeat) {}
