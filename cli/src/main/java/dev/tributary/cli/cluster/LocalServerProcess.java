package dev.tributary.cli.cluster;

import dev.tributary.cli.TributaryCli;
import dev.tributary.common.exception.StorageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One server JVM of a local cluster: the same {@code java} and class path as this process, running
 * {@code tributary server} with the given arguments, its output appended to {@code
 * <server-dir>/server.out} and its pid in {@code <server-dir>/server.pid}.
 */
public final class LocalServerProcess {
    static final String PID_FILE = "server.pid";
    static final String OUT_FILE = "server.out";
    private static final String DIR_PROPERTY = "tributary.cluster.server-dir";

    private final int id;
    private final Path dir;
    private final Process process;

    private LocalServerProcess(int id, Path dir, Process process) {
        this.id = id;
        this.dir = dir;
        this.process = process;
    }

    /** Starts server {@code id} in {@code dir} with {@code serverArgs} after {@code server}. */
    public static LocalServerProcess start(int id, Path dir, List<String> serverArgs) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        // first, ahead of the long class path: Linux shows a process's command line only up to
        // 4096 bytes, and running() recognises the server by this
        cmd.add("-D" + DIR_PROPERTY + "=" + dir);
        // the logging set-up of bin/tributary (its configuration file, no log4j hook of its
        // own), with the server's INFO level whatever this command's level is
        for (String key : System.getProperties().stringPropertyNames()) {
            if (key.startsWith("log4j2.")) {
                cmd.add("-D" + key + "=" + System.getProperty(key));
            }
        }
        cmd.add("-Dtributary.log.level=INFO");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(TributaryCli.class.getName());
        cmd.add("server");
        cmd.addAll(serverArgs);
        try {
            Files.createDirectories(dir);
            Path out = dir.resolve(OUT_FILE);
            Process p =
                    new ProcessBuilder(cmd)
                            .redirectErrorStream(true)
                            .redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile()))
                            .redirectInput(ProcessBuilder.Redirect.from(nullDevice()))
                            .start();
            Files.writeString(dir.resolve(PID_FILE), p.pid() + "\n", StandardCharsets.UTF_8);
            return new LocalServerProcess(id, dir, p);
        } catch (IOException e) {
            throw new StorageException("cannot start server " + id + ": " + e.getMessage(), e);
        }
    }

    private static java.io.File nullDevice() {
        return new java.io.File(
                System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    /**
     * The live process whose pid {@code dir}'s pid file names, if it still runs this directory's
     * server (a pid reused by another program does not count when its command line is visible).
     */
    public static Optional<ProcessHandle> running(Path dir) {
        Path pidFile = dir.resolve(PID_FILE);
        if (!Files.isRegularFile(pidFile)) {
            return Optional.empty();
        }
        long pid;
        try {
            pid = Long.parseLong(Files.readString(pidFile, StandardCharsets.UTF_8).trim());
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
        return ProcessHandle.of(pid)
                .filter(ProcessHandle::isAlive)
                .filter(
                        h ->
                                h.info()
                                        .commandLine()
                                        .map(
                                                c ->
                                                        c.contains(DIR_PROPERTY + "=" + dir + " ")
                                                                || c.endsWith(
                                                                        DIR_PROPERTY + "=" + dir))
                                        .orElse(true));
    }

    public int id() {
        return id;
    }

    public long pid() {
        return process.pid();
    }

    public Path log() {
        return dir.resolve(OUT_FILE);
    }

    public Process process() {
        return process;
    }

    /** Sends SIGTERM (a graceful shutdown). */
    public void terminate() {
        process.destroy();
    }

    /**
     * Waits up to {@code millis} for the process to exit, then kills it; removes its pid file.
     * Returns whether it exited by itself.
     */
    public boolean awaitExitOrKill(long millis) throws InterruptedException {
        boolean exited = process.waitFor(millis, TimeUnit.MILLISECONDS);
        if (!exited) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        Path pidFile = dir.resolve(PID_FILE);
        try {
            // a later command may have restarted this server: its pid file is not ours to remove
            if (Files.isRegularFile(pidFile)
                    && Files.readString(pidFile, StandardCharsets.UTF_8)
                            .trim()
                            .equals(Long.toString(process.pid()))) {
                Files.delete(pidFile);
            }
        } catch (IOException e) {
            // a stale pid file is harmless: running() checks the process behind it
        }
        return exited;
    }
}
