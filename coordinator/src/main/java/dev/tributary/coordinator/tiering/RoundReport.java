package dev.tributary.coordinator.tiering;

import java.util.Objects;

/**
 * A job's report that a round ended without going through {@code commit}: nothing to commit, or it
 * failed. A round that commits needs no report: the commit moves the table on.
 *
 * @param tableId the table id
 * @param epoch the round's epoch
 * @param outcome how it ended
 * @param message failure reason for {@link Outcome#FAILED}, else may be {@code null}
 */
public record RoundReport(long tableId, long epoch, Outcome outcome, String message) {
    public RoundReport {
        Objects.requireNonNull(outcome, "outcome");
    }

    /** How a round ended without a commit. */
    public enum Outcome {
        /** The round had nothing to write (T27); the table is scheduled after freshness. */
        FINISHED,
        /**
         * The round hit its ceiling before writing anything (T13); the rest is due at once, so the
         * table goes Tiered -> Pending with a new epoch. Not a failure.
         */
        FORCE_FINISHED,
        /** A write, commit or validation error (T22); the table retries with backoff. */
        FAILED
    }

    public static RoundReport finished(long tableId, long epoch) {
        return new RoundReport(tableId, epoch, Outcome.FINISHED, null);
    }

    public static RoundReport forceFinished(long tableId, long epoch) {
        return new RoundReport(tableId, epoch, Outcome.FORCE_FINISHED, null);
    }

    public static RoundReport failed(long tableId, long epoch, String message) {
        return new RoundReport(tableId, epoch, Outcome.FAILED, message);
    }
}
