package dev.tributary.tiering.api;

import java.util.List;
import java.util.Objects;

/**
 * A job's report that a round ended without going through a commit: nothing to write (T27),
 * force-finished before writing anything (T13), or failed (T22). A round that commits needs no
 * report: the commit moves the table on.
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

    /** The attempt the report ends. */
    public Attempt attempt() {
        return new Attempt(tableId, epoch);
    }

    public static RoundReport finished(long tableId, long epoch) {
        return new RoundReport(tableId, epoch, Outcome.FINISHED, null, List.of());
    }

    public static RoundReport forceFinished(long tableId, long epoch) {
        return new RoundReport(tableId, epoch, Outcome.FORCE_FINISHED, null, List.of());
    }

    /** A round that had nothing to write, cut by its ceiling or not. */
    public static RoundReport finished(Attempt attempt, boolean forceFinished) {
        return forceFinished
                ? forceFinished(attempt.tableId(), attempt.epoch())
                : finished(attempt.tableId(), attempt.epoch());
    }

    public static RoundReport failed(long tableId, long epoch, String message) {
        return failed(tableId, epoch, message, List.of());
    }

    public static RoundReport failed(
            long tableId, long epoch, String message, List<byte[]> discardedResults) {
        return new RoundReport(tableId, epoch, Outcome.FAILED, message, discardedResults);
    }

    public static RoundReport failed(Attempt attempt, String message, List<byte[]> discarded) {
        return failed(attempt.tableId(), attempt.epoch(), message, discarded);
    }
}
