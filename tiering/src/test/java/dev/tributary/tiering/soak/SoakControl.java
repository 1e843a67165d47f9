package dev.tributary.tiering.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Trigger files through which the soak tells the server process what fault to inject into its next
 * lake commits. A trigger holds a count; the server consumes one per commit it affects and deletes
 * the file at zero, so the soak sees when a fault has fired.
 */
public final class SoakControl {
    /** The next N lake commits fail before they reach the lake. */
    public static final String FAIL_BEFORE_COMMIT = "fail-before-lake-commit";

    /** The next N lake commits land in the lake, then the step fails (outcome unknown). */
    public static final String FAIL_AFTER_COMMIT = "fail-after-lake-commit";

    /** The server SIGKILLs itself after its next lake commit, before the coordinator records it. */
    public static final String KILL_AFTER_COMMIT = "kill-after-lake-commit";

    /**
     * The server SIGSTOPs itself right before its next lake commit (the soak SIGCONTs it once
     * another server coordinates): the commit then runs on a round planned before the failover.
     */
    public static final String PAUSE_BEFORE_COMMIT = "pause-before-lake-commit";

    private final Path dir;

    public SoakControl(Path dir) {
        this.dir = dir;
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path dir() {
        return dir;
    }

    /** Arms {@code trigger} for the next {@code count} commits. */
    public void arm(String trigger, int count) {
        Path tmp = dir.resolve(trigger + ".tmp");
        try {
            Files.writeString(tmp, Integer.toString(count), StandardCharsets.US_ASCII);
            Files.move(tmp, dir.resolve(trigger), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public boolean armed(String trigger) {
        return Files.exists(dir.resolve(trigger));
    }

    public void disarm(String trigger) {
        try {
            Files.deleteIfExists(dir.resolve(trigger));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Takes one count of {@code trigger} if it is armed (called by the one server process).
     *
     * @return true if the fault fires now
     */
    public boolean consume(String trigger) {
        Path f = dir.resolve(trigger);
        try {
            if (!Files.exists(f)) {
                return false;
            }
            int left = Integer.parseInt(Files.readString(f, StandardCharsets.US_ASCII).strip()) - 1;
            if (left <= 0) {
                Files.deleteIfExists(f);
            } else {
                arm(trigger, left);
            }
            return true;
        } catch (IOException | NumberFormatException e) {
            return false;
        }
    }
}
