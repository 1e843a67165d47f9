package dev.tributary.lake.api.maintenance;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TablePath;
import java.util.ArrayList;
import java.util.List;

/**
 * The results of one compaction grant as a format's maintainer commits them: each checked to belong
 * to this format, table and grant (a result of another grant must never be committed in its name),
 * the non-empty payloads in order, and the totals the commit outcome reports.
 *
 * @param payloads the format's encoded compaction of each bucket that changed something
 */
public record CompactionResults(
        List<byte[]> payloads,
        int filesRemoved,
        int filesAdded,
        long bytesRemoved,
        long bytesAdded) {

    public CompactionResults {
        payloads = List.copyOf(payloads);
    }

    /**
     * @throws InvalidInputException when a result belongs to another format, table or grant
     */
    public static CompactionResults of(
            String format,
            TablePath tablePath,
            long tableId,
            long maintenanceId,
            List<LakeCompactionResult> results) {
        List<byte[]> payloads = new ArrayList<>();
        int removed = 0;
        int added = 0;
        long bytesRemoved = 0;
        long bytesAdded = 0;
        for (LakeCompactionResult r : results) {
            if (!r.format().equals(format)
                    || !r.tablePath().equals(tablePath)
                    || r.tableId() != tableId
                    || r.maintenanceId() != maintenanceId) {
                throw new InvalidInputException(
                        "cannot commit "
                                + r
                                + " to "
                                + format
                                + " table '"
                                + tablePath
                                + "' as compaction "
                                + maintenanceId
                                + " of table id "
                                + tableId
                                + ": it belongs elsewhere");
            }
            if (r.isEmpty()) {
                continue;
            }
            payloads.add(r.payload());
            removed += r.filesBefore();
            added += r.filesAfter();
            bytesRemoved += r.bytesBefore();
            bytesAdded += r.bytesAfter();
        }
        return new CompactionResults(payloads, removed, added, bytesRemoved, bytesAdded);
    }

    public boolean isEmpty() {
        return payloads.isEmpty();
    }

    /** The outcome of committing these results as lake snapshot {@code snapshotId}. */
    public MaintenanceCommitResult committed(long snapshotId) {
        return MaintenanceCommitResult.committed(
                snapshotId, filesRemoved, filesAdded, bytesRemoved, bytesAdded);
    }
}
