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
 */
public final class AttemptFileNames {
    private static final Pattern TAG =
            Pattern.compile("(?:^|[-_])tributary-t(\\d+)-e(\\d+)(?=[-_.]|$)");

    private AttemptFileNames() {}

    /** The tag a writer of this attempt puts into each file name. */
    public static String tag(long tableId, long epoch) {
        return "tributary-t" + tableId + "-e" + epoch;
    }

    /** The tag of {@code context}'s attempt. */
    public static String tag(LakeWriterContext context) {
        return tag(context.tableId(), context.epoch());
    }

    /** The attempt a file name was written by, or empty for files of other writers. */
    public static Optional<Attempt> parse(String fileName) {
        int slash = fileName.lastIndexOf('/');
        Matcher m = TAG.matcher(slash < 0 ? fileName : fileName.substring(slash + 1));
        if (!m.find()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Attempt(Long.parseLong(m.group(1)), Long.parseLong(m.group(2))));
        } catch (NumberFormatException tooLong) {
            return Optional.empty();
        }
    }

    /** The table id and epoch of a tiering attempt. */
    public record Attempt(long tableId, long epoch) {}
}
