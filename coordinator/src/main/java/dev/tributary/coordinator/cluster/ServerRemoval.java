package dev.tributary.coordinator.cluster;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.BucketAssignments;
import dev.tributary.coordinator.metadata.BucketReplicas;
import dev.tributary.coordinator.store.MetadataStore;
import java.util.TreeSet;
import java.util.function.IntPredicate;

/**
 * Takes a server out of the cluster's registrations (issue 23: {@code tributary cluster
 * remove-server}) once nothing needs it: it is stopped (its heartbeats expired, so a running server
 * does not register itself again a heartbeat later) and no bucket names it as a replica or a move
 * target (a drain moved them off). Its data directory is left alone.
 *
 * <p>Runs on the coordinator's event loop, so no assignment can name the server between the check
 * and the removal.
 */
public final class ServerRemoval {
    private final BucketAssignments assignments;
    private final MetadataStore metadata;
    private final IntPredicate expired;

    /**
     * @param expired whether a server's heartbeats stopped for the heartbeat timeout
     */
    public ServerRemoval(
            BucketAssignments assignments, MetadataStore metadata, IntPredicate expired) {
        this.assignments = assignments;
        this.metadata = metadata;
        this.expired = expired;
    }

    /**
     * Removes server {@code serverId}'s registration, or with {@code dryRun} only checks that it
     * may be.
     *
     * @throws InvalidInputException naming what to do first: the server is not registered, still
     *     heartbeats, or still holds replicas
     */
    public void remove(int serverId, boolean dryRun) {
        if (!metadata.servers().containsKey(serverId)) {
            throw new InvalidInputException(
                    "server "
                            + serverId
                            + " is not registered; the servers are "
                            + new TreeSet<>(metadata.servers().keySet()));
        }
        if (!expired.test(serverId)) {
            throw new InvalidInputException(
                    "server "
                            + serverId
                            + " is alive: stop it first (once its heartbeats stop, 'tributary"
                            + " cluster' shows it EXPIRED)");
        }
        int held = 0;
        for (BucketAssignment a : assignments.all()) {
            for (BucketReplicas r : a.buckets()) {
                if (r.replicas().contains(serverId) || r.target().contains(serverId)) {
                    held++;
                }
            }
        }
        if (held > 0) {
            throw new InvalidInputException(
                    "server "
                            + serverId
                            + " still holds replicas of "
                            + held
                            + (held == 1 ? " bucket" : " buckets")
                            + ": move them off first with 'tributary cluster rebalance --drain "
                            + serverId
                            + "' (start the server again for the moves to copy from it if it"
                            + " holds the only in-sync copy)");
        }
        if (!dryRun) {
            metadata.removeServer(serverId);
        }
    }
}
