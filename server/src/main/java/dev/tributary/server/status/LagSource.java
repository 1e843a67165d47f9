package dev.tributary.server.status;

import java.util.List;

/**
 * Where the lag sampler reads the current status of every lake table: in the server, the same
 * {@link TieringStatusService} that answers {@code /api/tiering}, so the plot and the table agree.
 */
@FunctionalInterface
public interface LagSource {

    /** The current status of every lake table (dropped tables absent). */
    List<TableStatusView> tables();
}
