package dev.tributary.lake.api.commit;

import dev.tributary.lake.api.write.AttemptFileNames;
import java.time.Instant;
import java.util.Objects;

/**
 * Which data files that no snapshot references may be deleted (T23). Two kinds qualify:
 *
 * <ul>
 *   <li>files written by tiering attempts of {@code tableId} with an epoch at most {@code
 *       deadUpToEpoch}, whatever their age: once an attempt of that epoch or a newer one has
 *       committed, every older attempt is fenced and can never reference its files (T19);
 *   <li>files written by maintenance grants (compaction, T38) of {@code tableId} with a maintenance
 *       id at most {@code deadMaintenanceUpTo}: grants that committed, gave way or were given up;
 *   <li>any file last modified before {@code olderThan}: a grace period that protects files other
 *       writers are still writing or about to commit.
 * </ul>
 *
 * @param olderThan the grace period's end
 * @param tableId the Tributary table whose dead attempts are named, or -1 for none
 * @param deadUpToEpoch the newest epoch whose attempts are known dead or committed
 * @param deadMaintenanceUpTo the newest maintenance id whose grants are known to be over, -1 for
 *     none
 */
public record OrphanPolicy(
        Instant olderThan, long tableId, long deadUpToEpoch, long deadMaintenanceUpTo) {
    public OrphanPolicy {
        Objects.requireNonNull(olderThan, "olderThan");
    }

    /** A policy for tiering attempts only: no maintenance grant is known dead. */
    public OrphanPolicy(Instant olderThan, long tableId, long deadUpToEpoch) {
        this(olderThan, tableId, deadUpToEpoch, -1);
    }

    /** Only the grace period: any unreferenced file older than {@code olderThan}. */
    public static OrphanPolicy olderThan(Instant olderThan) {
        return new OrphanPolicy(olderThan, -1, -1, -1);
    }

    /** Whether an unreferenced file with this name and modification time may be deleted. */
    public boolean deletable(String fileName, long modifiedMillis) {
        return modifiedMillis < olderThan.toEpochMilli() || ofDeadAttempt(fileName);
    }

    /**
     * Whether the file's name says a tiering attempt or maintenance grant of the table wrote it
     * that is known dead or committed: deletable at any age if nothing references it.
     */
    public boolean ofDeadAttempt(String fileName) {
        return AttemptFileNames.parse(fileName)
                        .filter(a -> a.tableId() == tableId && a.epoch() <= deadUpToEpoch)
                        .isPresent()
                || AttemptFileNames.parseMaintenance(fileName)
                        .filter(a -> a.tableId() == tableId && a.epoch() <= deadMaintenanceUpTo)
                        .isPresent();
    }
}
