package dev.tributary.server.cluster;

import dev.tributary.cluster.LeadershipListener;
import dev.tributary.common.exception.FencedException;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a server of several voters its cluster's coordinator when it becomes the metadata quorum's
 * leader (T49). Told on the metadata store's leadership thread, so the coordinator it starts loads
 * an image holding every committed entry.
 *
 * <p>A server that loses the leadership after it coordinated is stopped through {@code onFault}:
 * its coordinator's attempts are fenced by the next coordinator's epochs and a restart rejoins as a
 * follower. A coordinator that stops while its server keeps serving is not built: a lake commit it
 * still has in flight could land after its successor reconciled from the lake, and stopping the
 * process bounds that window.
 */
public final class LeadershipFollower implements LeadershipListener {
    private static final Logger LOG = LoggerFactory.getLogger(LeadershipFollower.class);

    private final CoordinatorRole role;
    private final BooleanSupplier stopping;
    private final Runnable takeOver;
    private final Consumer<Throwable> onFault;

    /**
     * @param stopping whether the server is closing (it then takes nothing over)
     * @param takeOver starts the coordinator and what comes with it (registration, assignments)
     * @param onFault stops the server, with the reason
     */
    public LeadershipFollower(
            CoordinatorRole role,
            BooleanSupplier stopping,
            Runnable takeOver,
            Consumer<Throwable> onFault) {
        this.role = role;
        this.stopping = stopping;
        this.takeOver = takeOver;
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
            LOG.error(
                    "this server lost the leadership of the cluster metadata (leader now {}): it"
                            + " stops",
                    leaderId.orElse("unknown"));
            onFault.accept(
                    new FencedException("this server lost the leadership of the cluster metadata"));
        }
    }
}
