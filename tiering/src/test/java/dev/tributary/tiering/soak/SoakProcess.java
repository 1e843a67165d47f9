package dev.tributary.tiering.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM of the soak (server, tiering job, Flink JobManager or TaskManager) with this JVM's
 * class path and its output appended to a file, so the soak can SIGKILL, SIGSTOP and SIGCONT it as
 * the kernel or an operator would.
 */
public final class SoakProcess implements AutoCloseable {
    private final String name;
    private final Process process;
    private final Path output;
    private final long outputStart;

    private SoakProcess(String name, Process process, Path output, long outputStart) {
        this.name = name;
        this.process = process;
        this.output = output;
        this.outputStart = outputStart;
    }

    /**
     * Starts {@code mainClass} with the given JVM options and arguments.
     *
     * @param classPath the class path (this JVM's when null)
     * @param env extra environment variables
     */
    public static SoakProcess start(
            String name,
            Path output,
            String classPath,
            List<String> jvmOptions,
            String mainClass,
            List<String> args,
            Map<String, String> env)
            throws IOException {
        return start(name, output, List.of(), classPath, jvmOptions, mainClass, args, env);
    }

    /**
     * Like {@link #start(String, Path, String, List, String, List, Map)}, the JVM run through
     * {@code prefix} (a command that execs it, such as {@code ip netns exec <name>}, so the
     * process's pid stays the JVM's).
     */
    public static SoakProcess start(
            String name,
            Path output,
            List<String> prefix,
            String classPath,
            List<String> jvmOptions,
            String mainClass,
            List<String> args,
            Map<String, String> env)
            throws IOException {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(classPath == null ? System.getProperty("java.class.path") : classPath);
        cmd.add(mainClass);
        cmd.addAll(args);
        long start = Files.exists(output) ? Files.size(output) : 0;
        Files.writeString(
                output,
                "\n==== " + name + " started\n",
                StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
        ProcessBuilder pb =
                new ProcessBuilder(cmd)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
        pb.environment().putAll(env);
        return new SoakProcess(name, pb.start(), output, start);
    }

    /** JVM options for a small, quickly starting child on a shared two-core machine. */
    public static List<String> smallJvm(String heap) {
        return List.of("-Xmx" + heap, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Waits until this run of the process printed {@code text}; false if it died or timed out. */
    public boolean awaitOutput(String text, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (outputOfThisRun().contains(text)) {
                return true;
            }
            if (!process.isAlive()) {
                return outputOfThisRun().contains(text);
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
        return false;
    }

    /** Waits for the process to end by itself; its exit code, or -1 on timeout. */
    public int awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)
                ? process.exitValue()
                : -1;
    }

    /** SIGKILL, and wait for it to be gone. */
    public void kill() throws InterruptedException {
        signal("CONT"); // a stopped process dies only once it runs again
        process.destroyForcibly();
        process.waitFor(60, TimeUnit.SECONDS);
    }

    /** SIGTERM (shutdown hooks run), waiting at most {@code timeout}, then SIGKILL. */
    public void terminate(Duration timeout) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            kill();
        }
    }

    public void stop() {
        signal("STOP");
    }

    public void resume() {
        signal("CONT");
    }

    private void signal(String sig) {
        if (!process.isAlive()) {
            return;
        }
        try {
            new ProcessBuilder("kill", "-" + sig, Long.toString(pid()))
                    .start()
                    .waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What this run printed (the file keeps earlier runs too). */
    public String outputOfThisRun() {
        try {
            byte[] all = Files.readAllBytes(output);
            int from = (int) Math.min(outputStart, all.length);
            return new String(all, from, all.length - from, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
