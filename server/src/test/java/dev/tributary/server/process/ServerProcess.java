package dev.tributary.server.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A server main in a child JVM with the test's class path, its output in a file, so that a test can
 * kill it (SIGKILL) like the kernel would and start it again on the same data directory and port.
 */
public final class ServerProcess implements AutoCloseable {
    private final Process process;
    private final Path output;

    private ServerProcess(Process process, Path output) {
        this.process = process;
        this.output = output;
    }

    /**
     * Starts {@code mainClass} and waits until it printed {@code started} (or died).
     *
     * @param output where stdout and stderr go (appended, so restarts keep the earlier lines)
     */
    public static ServerProcess start(
            Class<?> mainClass, List<String> args, Path output, Duration startTimeout)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx512m");
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass.getName());
        cmd.addAll(args);
        long before = Files.exists(output) ? Files.size(output) : 0;
        Process p =
                new ProcessBuilder(cmd)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()))
                        .start();
        ServerProcess sp = new ServerProcess(p, output);
        long deadline = System.nanoTime() + startTimeout.toNanos();
        while (System.nanoTime() < deadline) {
            String out = sp.output();
            if (out.length() > before && out.substring((int) before).contains("started ")) {
                return sp;
            }
            if (!p.isAlive()) {
                throw new IllegalStateException(
                        "server process exited with " + p.exitValue() + ":\n" + out);
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
        sp.close();
        throw new IllegalStateException("server process did not start:\n" + sp.output());
    }

    /** A port free right now (to restart a server on the same address). */
    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Waits for the process to end on its own; its exit code. */
    public int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("server process still runs:\n" + output());
        }
        return process.exitValue();
    }

    /** SIGKILL and wait. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    public String output() {
        try {
            return Files.exists(output) ? Files.readString(output, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
