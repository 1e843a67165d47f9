package dev.tributary.cli.output;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Sends this process's log lines to {@code <data-dir>/log/tributary.log}, for the commands that
 * have a data directory (server, demo), or to a directory the user names ({@code tiering-job
 * --log-dir}). conf/log4j2.xml routes on the system property set here, line by line, so nothing
 * needs reconfiguring; under another logging setup (tests) it changes nothing but the property.
 */
public final class LogDirectory {
    /** The property conf/log4j2.xml routes on. */
    public static final String PROPERTY = "tributary.log.dir";

    /** The file the shipped configuration writes in the directory. */
    public static final String FILE_NAME = "tributary.log";

    private LogDirectory() {}

    /** Makes {@code <dataDir>/log} the log directory; returns the log file. */
    public static Path underDataDir(Path dataDir) throws IOException {
        return use(dataDir.toAbsolutePath().resolve("log"));
    }

    /** Makes {@code directory} (created if missing) the log directory; returns the log file. */
    public static Path use(Path directory) throws IOException {
        Path dir = Files.createDirectories(directory.toAbsolutePath());
        System.setProperty(PROPERTY, dir.toString());
        Path file = dir.resolve(FILE_NAME);
        // Flink's embedded web monitor looks for its log file here and warns when there is none
        System.setProperty("log.file", file.toString());
        return file;
    }
}
