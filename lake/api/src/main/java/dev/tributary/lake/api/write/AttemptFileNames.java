package dev.tributary.lake.api.write;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names of the data files a tiering writer creates carry the attempt that wrote them: {@code
 * tributary-t<tableId>-e<epoch>} somewhere in the file name. A file left behind by an attempt that
 * can no longer commit (failed, fenced, or its job killed) is then recognisable as garbage the
 * moment a newer attempt of the same table commits, whatever its age (T23), while files of other
 * writers (another engine compacting the table, say) are only ever removed after a grace period.
 *
 * <p>Files a maintenance grant writes (compaction, T38) carry {@code tributary-t<tableId>-m<id>}
 * instead, with the grant's maintenance id: recognisable the same way once the grant is dead, and
 * never mistaken for a tiering attempt's.
 */
public final class AttemptFileNames {
    private static final Pattern TAG =
            Pattern.compile("(?:^|[-_])tributary-t(\\d+)-e(\\d+)(?=[-_.]|$)");
    private static final Pattern MAINTENANCE_TAG =
            Pattern.compile("(?:^|[-_])tributary-t(\\d+)-m(\\d+)(?=[-_.]|$)");

    private AttemptFileNames() {}

    /** The tag a writer of this attempt puts into each file name. */
    public static String tag(long tableId, long epoch) {
        return "tributary-t" + tableId + "-e" + epoch;
    }

    /** The tag of {@code context}'s attempt. */
    public static String tag(LakeWriterContext context) {
        return tag(context.tableId(), context.epoch());
    }

    /** The tag a compactor of maintenance grant {@code maintenanceId} puts into file names. */
    public static String maintenanceTag(long tableId, long maintenanceId) {
        return "tributary-t" + tableId + "-m" + maintenanceId;
    }

    /** The attempt a file name was written by, or empty for files of other writers. */
    public static Optional<Attempt> parse(String fileName) {
        return parse(TAG, fileName);
    }

    /**
     * The maintenance grant a file name was written by, as (table id, maintenance id), or empty for
     * files of tiering attempts and other writers.
     */
    public static Optional<Attempt> parseMaintenance(String fileName) {
        return parse(MAINTENANCE_TAG, fileName);
    }

    private static Optional<Attempt> parse(Pattern tag, String fileName) {
        int slash = fileName.lastIndexOf('/');
        Matcher m = tag.matcher(slash < 0 ? fileName : fileName.substring(slash + 1));
        if (!m.find()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Attempt(Long.parseLong(m.group(1)), Long.parseLong(m.group(2))));
        } catch (NumberFormatException tooLong) {
            return Optional.empty();
        }
    }

    /** The table id and epoch of a tiering attempt (or the maintenance id of a grant). */
    public record Attempt(long tableId, long epoch) {}
}
