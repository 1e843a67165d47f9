package dev.tributary.cluster;

/** What the server that coordinates may do with its leadership of the metadata quorum. */
public interface MetadataLeadership {
    /**
     * Gives the leadership up if this server holds it: the voters elect a leader in a new term
     * (this server may win again), and whichever wins is told it leads once its image holds every
     * committed entry ({@link LeadershipListener#onLeaderReady}). Returns at once; a refusal (this
     * server no longer leads) is logged.
     */
    void yieldLeadership();
}
