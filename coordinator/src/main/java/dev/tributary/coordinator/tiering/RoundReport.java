package dev.tributary.coordinator.tiering;

import java.util.List;
import java.util.Objects;

/**
 * A job's report that a round ended without going through {@code commit}: nothing to commit, or it
 * failed. A round that commits needs no report: the commit moves the table on.
 *
 * @param tableId the table id
 * @param epoch the round's epoch
 * @param outcome how it ended
 * @param message failure reason for {@link Outcome#FAILED}, else may be {@code null}
 * @param discardedResults write results of splits that had finished before the round failed; they
 *     will never be committed, so their files are deleted at once (T23)
 */
public record RoundReport(
        long tableId, long epoch, Outcome outcome, String message, List<byte[]> discardedResults) {
    public RoundReport {
        Objects.requireNonNull(outcome, "outcome");
        discardedResults = List.copyOf(discardedResults);
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
        return new RoundReport(tableId, epoch, Outcome.FINISHED, null, List.of());
    }

    public static RoundReport forceFinished(long tableId, long epoch) {
        return new RoundReport(tableId, epoch, Outcome.FORCE_FINISHED, null, List.of());
    }

    public static RoundReport failed(long tableId, long epoch, String message) {
        return failed(tableId, epoch, message, List.of());
    }

    public static RoundReport failed(
            long tableId, long epoch, String message, List<byte[]> discardedResults) {
        return new RoundReport(tableId, epoch, Outcome.FAILED, message, discardedResults);
    }
}
