package dev.tributary.server.cluster;

import dev.tributary.common.exception.NotCoordinatorException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.coordinator.Coordinator;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Whether this server is the cluster's coordinator right now, and its running {@link Coordinator}
 * when it is (T49). Every part of the server that acts as coordinator (the admin, tiering and
 * cluster services, table and partition changes, maintenance, the tiering status) asks here at each
 * call instead of holding a coordinator, so a server that does not coordinate (yet) answers with a
 * {@link NotCoordinatorException} naming the coordinator it knows of (or a retriable error while
 * none can answer), and one that took over after a failover serves with its new coordinator.
 *
 * <p>A lone server, or a cluster of one, has a coordinator from its start to its end.
 */
public final class CoordinatorRole {
    private final Supplier<? extends TributaryException> refusal;
    private volatile Coordinator running;

    /**
     * @param refusal the error a coordinator call gets while this server does not coordinate: a
     *     {@link NotCoordinatorException} naming the coordinator's id and address, or a retriable
     *     error while none can answer
     */
    public CoordinatorRole(Supplier<? extends TributaryException> refusal) {
        this.refusal = refusal;
    }

    /** A role that is always {@code coordinator}'s: a lone server, and tests of the services. */
    public static CoordinatorRole of(Coordinator coordinator) {
        CoordinatorRole role =
                new CoordinatorRole(
                        () ->
                                new NotCoordinatorException(
                                        "this server stopped coordinating", null));
        role.took(coordinator);
        return role;
    }

    /**
     * The running coordinator.
     *
     * @throws NotCoordinatorException when this server does not coordinate now and knows which one
     *     does
     * @throws RetriableException when no server can answer as coordinator now
     */
    public Coordinator current() {
        Coordinator c = running;
        if (c == null) {
            throw refusal.get();
        }
        return c;
    }

    /** The running coordinator, if this server coordinates now (for status pages). */
    public Optional<Coordinator> running() {
        return Optional.ofNullable(running);
    }

    /** This server coordinates from now on, with {@code coordinator}. */
    public synchronized void took(Coordinator coordinator) {
        if (running != null) {
            throw new IllegalStateException("this server already runs a coordinator");
        }
        running = coordinator;
    }

    /** This server stopped coordinating; returns the coordinator it ran, to be closed. */
    public synchronized Optional<Coordinator> gaveUp() {
        Coordinator c = running;
        running = null;
        return Optional.ofNullable(c);
    }
}
