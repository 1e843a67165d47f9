package dev.tributary.client.tiering;

import java.util.List;
import java.util.Objects;

/**
 * A round that ended without a commit: nothing to write (T27), force-finished before writing
 * anything (T13), or failed (T22). A committed round needs no report.
 *
 * @param reason why it failed; null otherwise
 * @param discardedWriteResults results of splits that had finished before the round failed; they
 *     will never be committed, so the coordinator deletes their files (T23)
 */
public record RoundReport(
        Attempt attempt, Outcome outcome, String reason, List<byte[]> discardedWriteResults) {

    /** How a round ended without a commit. */
    public enum Outcome {
        FINISHED,
        FORCE_FINISHED,
        FAILED
    }

    public RoundReport {
        Objects.requireNonNull(attempt, "attempt");
        Objects.requireNonNull(outcome, "outcome");
        discardedWriteResults = List.copyOf(discardedWriteResults);
    }

    public static RoundReport finished(Attempt attempt, boolean forceFinished) {
        return new RoundReport(
                attempt,
                forceFinished ? Outcome.FORCE_FINISHED : Outcome.FINISHED,
                null,
                List.of());
    }

    public static RoundReport failed(Attempt attempt, String reason, List<byte[]> discarded) {
        return new RoundReport(attempt, Outcome.FAILED, reason, discarded);
    }
}
