package dev.tributary.lake.api.commit;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TablePath;
import dev.tributary.lake.api.write.LakeWriteResult;
import java.util.List;
import java.util.Optional;

/**
 * The checked write results of one round, for committer implementations: every result belongs to
 * the committer's format and table and to the round of the snapshot properties.
 *
 * @param nonEmpty the results that wrote files
 */
public record RoundResults(List<LakeWriteResult> nonEmpty) {

    /**
     * Checks {@code results} against the committer and the round.
     *
     * @throws InvalidInputException naming the first result that does not belong
     */
    public static RoundResults check(
            String format,
            TablePath tablePath,
            List<LakeWriteResult> results,
            TieringSnapshotProperties round) {
        for (LakeWriteResult r : results) {
            String problem = null;
            if (!r.format().equals(format)) {
                problem = "was written by format '" + r.format() + "'";
            } else if (!r.tablePath().equals(tablePath)) {
                problem = "belongs to table '" + r.tablePath() + "'";
            } else if (r.tableId() != round.tableId()
                    || r.epoch() != round.epoch()
                    || r.roundId() != round.roundId()) {
                problem =
                        "belongs to table id "
                                + r.tableId()
                                + " epoch "
                                + r.epoch()
                                + " round "
                                + r.roundId();
            }
            if (problem != null) {
                throw new InvalidInputException(
                        "cannot commit "
                                + r
                                + " to "
                                + format
                                + " table '"
                                + tablePath
                                + "' for table id "
                                + round.tableId()
                                + " epoch "
                                + round.epoch()
                                + " round "
                                + round.roundId()
                                + ": it "
                                + problem
                                + ". Drop results of stale rounds before committing (T20).");
            }
        }
        return new RoundResults(results.stream().filter(r -> !r.isEmpty()).toList());
    }

    /** True when no result wrote a file: the round produces no snapshot (T27). */
    public boolean isEmpty() {
        return nonEmpty.isEmpty();
    }

    public long rowCount() {
        return nonEmpty.stream().mapToLong(LakeWriteResult::rowCount).sum();
    }

    public long fileCount() {
        return nonEmpty.stream().mapToLong(r -> r.files().size()).sum();
    }

    public long fileBytes() {
        return nonEmpty.stream().mapToLong(LakeWriteResult::fileBytes).sum();
    }

    /** True when {@code latest} is the snapshot of the result's round (its files are live). */
    public static boolean committedBy(LakeWriteResult r, Optional<LakeSnapshot> latest) {
        return latest.isPresent()
                && latest.get().properties().tableId() == r.tableId()
                && latest.get().properties().epoch() == r.epoch()
                && latest.get().properties().roundId() == r.roundId();
    }
}
