package dev.tributary.cluster;

import java.util.Optional;

/**
 * Told when this server becomes or stops being the metadata leader (and so the coordinator). Called
 * on one thread of the {@link RaftMetadataStore}, never a Ratis thread, in the order the events
 * happened; a slow listener delays later events, not the quorum.
 */
public interface LeadershipListener {
    /**
     * This server leads {@code term} and its image holds every entry committed before: the
     * coordinator may start (load the metadata, start an incarnation).
     */
    void onLeaderReady(long term);

    /**
     * This server is not the leader: it lost leadership (stop acting as coordinator at once), or
     * another server was elected. {@code leaderId} is the new leader's server id when known.
     */
    void onNotLeader(Optional<String> leaderId);
}
