package dev.tributary.server.status;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.tributary.common.id.EpochFormat;
import java.util.List;

/**
 * One lake table in a list of many ({@code /api/tiering}, the console's overview): the fields of
 * its {@link TableStatusView} that fit one row, so that a page's size depends on the tables shown
 * and never on how many rounds ran. The round history, the offsets per bucket and the lag per
 * partition are only in the table's own view ({@code /api/tiering?table=db.t}, the table page).
 *
 * @param lastRound the last committed (or empty) round, as durably recorded
 * @param lastFailure the last failure's message, cut at {@link #MAX_MESSAGE_CHARS} characters
 * @param partitions partitions with a lag of their own (0 for an unpartitioned table)
 * @param pkDeletes how a primary-key table retracts rows in the lake (T48), null for a log table
 * @see TableStatusView for the other fields
 */
public record TableRow(
        long tableId,
        String table,
        String group,
        String state,
        long epoch,
        int queuePosition,
        String jobId,
        long freshnessMillis,
        long lastTieredAtMillis,
        long lakeSnapshotId,
        TableStatusView.RoundView lastRound,
        Long lagMillis,
        Long lagRecords,
        String lagError,
        long consecutiveFailures,
        long totalFailures,
        String lastFailure,
        long nextEventAtMillis,
        int partitions,
        List<String> warnings,
        MaintenanceView maintenance,
        PkDeletesView pkDeletes) {

    /** Longest message a row carries; the table's own view has the whole one. */
    public static final int MAX_MESSAGE_CHARS = 400;

    public TableRow {
        warnings = List.copyOf(warnings);
    }

    /** The epoch as people read it (incarnation:counter); {@code epoch} stays exact. */
    @JsonProperty("epochText")
    public String epochText() {
        return EpochFormat.format(epoch);
    }

    /** The row of a table's full view. */
    public static TableRow of(TableStatusView v) {
        return new TableRow(
                v.tableId(),
                v.table(),
                v.group(),
                v.state(),
                v.epoch(),
                v.queuePosition(),
                v.jobId(),
                v.freshnessMillis(),
                v.lastTieredAtMillis(),
                v.lakeSnapshotId(),
                v.lastRound(),
                v.lagMillis(),
                v.lagRecords(),
                cut(v.lagError()),
                v.consecutiveFailures(),
                v.totalFailures(),
                cut(v.lastFailure()),
                v.nextEventAtMillis(),
                v.partitions().size(),
                v.warnings().stream().map(TableRow::cut).toList(),
                v.maintenance(),
                v.pkDeletes());
    }

    static String cut(String message) {
        if (message == null || message.length() <= MAX_MESSAGE_CHARS) {
            return message;
        }
        return message.substring(0, MAX_MESSAGE_CHARS - 1) + "\u2026";
    }
}
