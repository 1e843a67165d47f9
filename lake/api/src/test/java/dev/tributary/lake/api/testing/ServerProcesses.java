package dev.tributary.lake.api.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Starts the third-party servers built by {@code testing/servers} as child JVMs and waits for their
 * port. Each child dies with the test JVM (destroyed on close and by a shutdown hook).
 */
final class ServerProcesses {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private ServerProcesses() {}

    /** {@code testing/servers/target/servers}, found from the working directory upwards. */
    static Path serversDir() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path p = dir; p != null; p = p.getParent()) {
            Path candidate = p.resolve("testing/servers/target/servers");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException(
                "testing/servers/target/servers not found above "
                        + dir
                        + ": build it first (mvn -pl testing/servers package)");
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts {@code java <args>} with {@code env} added, logging to {@code log}. */
    static Process start(List<String> javaArgs, Map<String, String> env, Path log, int port) {
        List<String> command = new java.util.ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(javaArgs);
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.redirectOutput(log.toFile());
        pb.environment().putAll(env);
        Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly));
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "server exited with "
                                + process.exitValue()
                                + " before listening: "
                                + tail(log));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return process;
            } catch (IOException notYet) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    process.destroyForcibly();
                    throw new IllegalStateException(e);
                }
            }
        }
        process.destroyForcibly();
        throw new IllegalStateException("server did not listen on " + port + ": " + tail(log));
    }

    static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
