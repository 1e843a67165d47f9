package dev.tributary.coordinator.tiering;

import dev.tributary.common.config.TableOptions;
import dev.tributary.common.exception.FencedException;

/** Checks of a job's claim on a table attempt, shared by heartbeats, reports and commits. */
final class Attempts {
    private Attempts() {}

    /** Why an attempt is stale, or {@code null} if it is the table's current one. */
    static String staleness(TableTiering t, long tableId, long epoch, String jobId) {
        if (t == null) {
            return "table " + tableId + " is not tiered (dropped, disabled or unknown)";
        }
        if (t.state != TieringState.TIERING || t.epoch != epoch) {
            return "epoch "
                    + epoch
                    + " of table "
                    + t.table.path()
                    + " is stale: the table is "
                    + t.state
                    + " at epoch "
                    + t.epoch;
        }
        if (!t.jobId.equals(jobId)) {
            return "table " + t.table.path() + " is tiered by job " + t.jobId + ", not " + jobId;
        }
        return null;
    }

    static FencedException fenced(long tableId, String why) {
        return new FencedException("table " + tableId + ": " + why);
    }

    static String normalizeGroup(String group) {
        return group == null || group.isBlank() ? TableOptions.DEFAULT_TIERING_GROUP : group;
    }
}
