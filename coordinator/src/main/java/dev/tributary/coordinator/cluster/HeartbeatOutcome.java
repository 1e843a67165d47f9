package dev.tributary.coordinator.cluster;

/** The coordinator's answer to a server heartbeat (T49). */
public enum HeartbeatOutcome {
    /** The heartbeat counts: the server is alive. */
    ACCEPTED,
    /**
     * The heartbeat names an instance of the server that a newer instance (a restart) replaced: the
     * sender must stop acting as that server.
     */
    FENCED,
    /** No server with that id is registered: a server registers before it heartbeats. */
    UNKNOWN_SERVER
}
