package dev.tributary.server.cluster;

import dev.tributary.cluster.LeadershipListener;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a server of several voters its cluster's coordinator when it becomes the metadata quorum's
 * leader (T49), and only a server then. Told on the metadata store's leadership thread, so the
 * coordinator it starts loads an image holding every committed entry.
 *
 * <p>A server that loses the leadership after it coordinated steps down: its coordinator is closed
 * and the server goes on serving its buckets as any other. What the old coordinator still does is
 * harmless: its attempts are fenced by the next coordinator's epochs, its metadata writes are
 * refused by the quorum, and a lake commit it still has in flight is refused by the lake when the
 * successor committed a newer round first, or else makes the successor's round of the same offsets
 * the refused one (T19, the lake's fence). A failure to take over stops the server ({@code
 * onFault}): a leader that cannot coordinate would leave the cluster without a coordinator.
 */
public final class LeadershipFollower implements LeadershipListener {
    private static final Logger LOG = LoggerFactory.getLogger(LeadershipFollower.class);

    private final CoordinatorRole role;
    private final BooleanSupplier stopping;
    private final Runnable takeOver;
    private final Runnable stepDown;
    private final Consumer<Throwable> onFault;

    /**
     * @param stopping whether the server is closing (it then takes nothing over)
     * @param takeOver starts the coordinator and what comes with it (registration, assignments)
     * @param stepDown stops the coordinator; the server keeps serving
     * @param onFault stops the server, with the reason
     */
    public LeadershipFollower(
            CoordinatorRole role,
            BooleanSupplier stopping,
            Runnable takeOver,
            Runnable stepDown,
            Consumer<Throwable> onFault) {
        this.role = role;
        this.stopping = stopping;
        this.takeOver = takeOver;
        this.stepDown = stepDown;
        this.onFault = onFault;
    }

    @Override
    public void onLeaderReady(long term) {
        if (stopping.getAsBoolean() || role.running().isPresent()) {
            return;
        }
        LOG.info("this server leads the cluster metadata (term {}): it coordinates", term);
        try {
            takeOver.run();
        } catch (RuntimeException e) {
            onFault.accept(e);
        }
    }

    @Override
    public void onNotLeader(Optional<String> leaderId) {
        if (role.running().isPresent()) {
            LOG.warn(
                    "this server lost the leadership of the cluster metadata (leader now {}): it"
                            + " stops coordinating and goes on serving its buckets",
                    leaderId.orElse("unknown"));
            stepDown.run();
        }
    }
}
