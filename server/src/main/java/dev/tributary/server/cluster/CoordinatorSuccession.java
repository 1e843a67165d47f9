package dev.tributary.server.cluster;

import dev.tributary.cluster.MetadataLeadership;
import dev.tributary.common.exception.NotCoordinatorException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.Throwables;
import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.Coordinator;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts this server's coordinator and stops it again as the metadata quorum's leadership comes and
 * goes (T49), and decides what a coordinator's fault means for the server.
 *
 * <p>A server that loses the leadership steps down: its coordinator is closed on a thread of its
 * own, without waiting for its lake commits (their records would be refused by the quorum, and the
 * lake refuses a late commit that would duplicate the successor's round, T19), while the server
 * keeps serving its buckets.
 *
 * <p>A coordinator that stopped on a retriable error (a metadata write the quorum refused or did
 * not confirm in time: this server is losing the leadership, or cannot reach a majority) steps
 * down, and then gives the leadership up to an election if this server still holds it: the server
 * that wins, this one too, starts a coordinator from an image that holds every committed entry,
 * while the server keeps serving its buckets. Restarting the coordinator in the same term instead
 * could load an image without a write still in flight. Any other fault stops the server, whose
 * supervisor restarts it from the durable state. A fault of a coordinator already stepped down from
 * is only logged.
 */
public final class CoordinatorSuccession {
    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorSuccession.class);

    private final CoordinatorRole role;
    private final Function<Consumer<Throwable>, Coordinator> starter;
    private final MetadataLeadership quorum;
    private final Consumer<Throwable> stopServer;
    private final Clock clock;

    /**
     * @param starter starts a coordinator that reports its fault to the given consumer
     * @param quorum this server's part in the metadata quorum of several voters, or null (a lone
     *     server or a cluster of one: every fault stops it)
     * @param stopServer stops the server, with the reason
     */
    public CoordinatorSuccession(
            CoordinatorRole role,
            Function<Consumer<Throwable>, Coordinator> starter,
            MetadataLeadership quorum,
            Consumer<Throwable> stopServer,
            Clock clock) {
        this.role = role;
        this.starter = starter;
        this.quorum = quorum;
        this.stopServer = stopServer;
        this.clock = clock;
    }

    /** Starts a coordinator; the caller makes it the role's ({@link CoordinatorRole#took}). */
    public Coordinator start() {
        AtomicReference<Coordinator> self = new AtomicReference<>();
        Coordinator c = starter.apply(e -> onFault(self.get(), e));
        self.set(c);
        return c;
    }

    /**
     * This server leads the quorum: starts its coordinator, then {@code register}s it (the other
     * servers, clients and jobs find the coordinator by its registration) and only then runs {@code
     * recoverTables} (the lake-table check reads the lake once per table), logging how long each
     * part took.
     */
    public void takeOver(Runnable register, Runnable recoverTables) {
        long start = clock.currentTimeMillis();
        role.took(start());
        long started = clock.currentTimeMillis();
        register.run();
        long registered = clock.currentTimeMillis();
        recoverTables.run();
        LOG.info(
                "coordinating after {} ms (coordinator start {} ms, registration {} ms), tables"
                        + " recovered after {} ms more",
                registered - start,
                started - start,
                registered - started,
                clock.currentTimeMillis() - registered);
    }

    /** This server no longer leads the quorum: closes its coordinator, the server serves on. */
    public void stepDown() {
        role.gaveUp().ifPresent(old -> onOwnThread(() -> close(old)));
    }

    /**
     * Closes the running coordinator, then gives the leadership up: a coordinator of the next term
     * never runs beside this one on this server.
     */
    private void stepDownAndYield() {
        Optional<Coordinator> old = role.gaveUp();
        onOwnThread(
                () -> {
                    old.ifPresent(CoordinatorSuccession::close);
                    quorum.yieldLeadership();
                });
    }

    private static void onOwnThread(Runnable stepDown) {
        Thread t = new Thread(stepDown, "tributary-step-down");
        t.setDaemon(true);
        t.start();
    }

    private static void close(Coordinator old) {
        try {
            old.close(Duration.ZERO);
        } catch (RuntimeException e) {
            LOG.warn("error while closing the coordinator this server stepped down from", e);
        }
        LOG.info("this server stopped coordinating");
    }

    /** Coordinator {@code failed} stopped after an error ({@code null}: during its start). */
    private void onFault(Coordinator failed, Throwable e) {
        if (failed != null && role.running().orElse(null) != failed) {
            LOG.warn("the coordinator this server stepped down from failed while closing: {}", e);
            return;
        }
        if (quorum != null
                && (Throwables.causedBy(e, NotCoordinatorException.class)
                        || Throwables.causedBy(e, RetriableException.class))) {
            LOG.warn(
                    "this server's coordinator stopped ({}): it stops coordinating, gives the"
                            + " leadership of the cluster metadata to an election if it still"
                            + " holds it, and goes on serving its buckets",
                    e.toString());
            stepDownAndYield();
            return;
        }
        stopServer.accept(e);
    }
}
