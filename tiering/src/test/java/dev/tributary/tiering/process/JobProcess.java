package dev.tributary.tiering.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A tiering job in a child JVM (its own local Flink MiniCluster), with stdout and stderr in one
 * file, so a test can kill it (SIGKILL), pause it (SIGSTOP) and resume it (SIGCONT) like an
 * operator or the kernel would.
 */
final class JobProcess implements AutoCloseable {
    private final String name;
    private final Process process;
    private final Path output;

    private JobProcess(String name, Process process, Path output) {
        this.name = name;
        this.process = process;
        this.output = output;
    }

    /**
     * Starts {@code mainClass} with the test's own class path. Failsafe (like surefire) sets {@code
     * java.class.path} to the real test class path even when it boots through a manifest-only jar,
     * which is what the storage and cli process tests rely on too.
     */
    static JobProcess start(String name, Path dir, Class<?> mainClass, List<String> args)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // three JVMs share two cores in these tests: a small heap, the serial collector, and only
        // the quick JIT tier, which starts a MiniCluster noticeably faster on a busy machine
        cmd.add("-Xmx768m");
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass.getName());
        cmd.addAll(args);
        Path out = dir.resolve(name + ".out");
        Process p =
                new ProcessBuilder(cmd)
                        .redirectErrorStream(true)
                        .redirectOutput(out.toFile())
                        .start();
        return new JobProcess(name, p, out);
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL: no shutdown hook, no close report to the coordinator, files half written. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("%s exited", name).isTrue();
    }

    /** SIGSTOP: every thread of the job freezes where it is, heartbeats included. */
    void pause() throws IOException, InterruptedException {
        signal("STOP");
        assertThat(processState()).as("%s is stopped after SIGSTOP", name).isEqualTo('T');
    }

    /** SIGCONT: the job resumes exactly where it froze, unaware that time passed. */
    void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String sig) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + sig, Long.toString(pid())).start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).as("kill -%s %d", sig, pid()).isZero();
    }

    /**
     * The process state letter from {@code /proc/<pid>/stat} (R, S, T...). SIGSTOP takes effect
     * asynchronously, so this waits (bounded) for a state other than running.
     */
    char processState() throws IOException {
        Path stat = Path.of("/proc", Long.toString(pid()), "stat");
        char state = '?';
        for (int i = 0; i < 200; i++) {
            String s = Files.readString(stat, StandardCharsets.US_ASCII);
            // the command name in parentheses may contain spaces: the state follows the last ')'
            state = s.charAt(s.lastIndexOf(')') + 2);
            if (state == 'T') {
                return state;
            }
            try {
                TimeUnit.MILLISECONDS.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return state;
            }
        }
        return state;
    }

    /** Everything the job printed so far. */
    String output() {
        try {
            return Files.exists(output) ? Files.readString(output, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Kills the process if it still runs (SIGCONT first, in case the test left it stopped). */
    @Override
    public void close() throws Exception {
        if (process.isAlive()) {
            try {
                signal("CONT");
            } catch (AssertionError | IOException e) {
                // already gone: nothing to resume
            }
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
