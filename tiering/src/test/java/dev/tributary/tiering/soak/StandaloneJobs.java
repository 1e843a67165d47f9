package dev.tributary.tiering.soak;

import dev.tributary.tiering.job.TieringJobMain;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * Tiering jobs as a user runs them with {@code tributary tiering-job}: {@code TieringJobMain} in
 * its own JVM with an embedded Flink MiniCluster, connected to the server through the soak's proxy.
 */
final class StandaloneJobs implements TieringJobs {
    private final Path logDir;
    private final Function<String, List<String>> jobArgs;
    private SoakProcess main;
    private String mainId = "job-1";
    private int started;
    private final double durationScale;

    /**
     * @param jobArgs the arguments of {@code TieringJobMain} for a job id
     */
    StandaloneJobs(Path logDir, Function<String, List<String>> jobArgs, double durationScale) {
        this.logDir = logDir;
        this.jobArgs = jobArgs;
        this.durationScale = durationScale;
    }

    private long duration(Random random, int min, int max) {
        return (long) ((min + random.nextInt(max - min)) * durationScale);
    }

    private SoakProcess startJob(String id) throws Exception {
        started++;
        SoakProcess p =
                SoakProcess.start(
                        id,
                        logDir.resolve(id + ".out"),
                        null,
                        SoakProcess.smallJvm("768m"),
                        TieringJobMain.class.getName(),
                        jobArgs.apply(id),
                        Map.of());
        if (!p.awaitOutput("registered as " + id, Duration.ofSeconds(120))) {
            throw new IllegalStateException(
                    "tiering job " + id + " did not register:\n" + tail(p.outputOfThisRun()));
        }
        return p;
    }

    @Override
    public void start() throws Exception {
        main = startJob(mainId);
    }

    @Override
    public boolean supports(FaultKind kind) {
        return kind == FaultKind.JOB_KILL
                || kind == FaultKind.JOB_PAUSE
                || kind == FaultKind.SECOND_JOB;
    }

    @Override
    public String inject(FaultKind kind, Random random) throws Exception {
        switch (kind) {
            case JOB_KILL -> {
                long pid = main.pid();
                main.kill();
                long gap = random.nextInt(3_000);
                Thread.sleep(gap);
                // an operator restarts it under its id (the coordinator fails its old attempts at
                // once), or a new job comes up (the old attempts wait for the heartbeat timeout)
                boolean sameId = random.nextBoolean();
                if (!sameId) {
                    mainId = "job-1-r" + started;
                }
                main = startJob(mainId);
                return "killed pid "
                        + pid
                        + ", "
                        + mainId
                        + " started after "
                        + gap
                        + " ms"
                        + (sameId ? " (same id)" : " (new id)");
            }
            case JOB_PAUSE -> {
                long pause = duration(random, 1_000, 8_000);
                main.stop();
                Thread.sleep(pause);
                main.resume();
                return "SIGSTOP " + main.name() + " for " + pause + " ms, then SIGCONT";
            }
            case SECOND_JOB -> {
                String id = "job-2-" + started;
                SoakProcess second = startJob(id);
                long run = duration(random, 5_000, 15_000);
                Thread.sleep(run);
                boolean kill = random.nextBoolean();
                if (kill) {
                    second.kill();
                } else {
                    second.terminate(Duration.ofSeconds(30));
                }
                return id
                        + " ran "
                        + run
                        + " ms beside "
                        + mainId
                        + ", then "
                        + (kill ? "SIGKILL" : "SIGTERM");
            }
            default -> throw new IllegalArgumentException(kind.name());
        }
    }

    @Override
    public String checkRunning() throws Exception {
        if (main.isAlive()) {
            return null;
        }
        String why = mainId + " exited by itself:\n" + tail(main.outputOfThisRun());
        main = startJob(mainId);
        return why;
    }

    static String tail(String output) {
        List<String> lines = new ArrayList<>(output.lines().toList());
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    @Override
    public void close() throws Exception {
        if (main != null) {
            main.close();
        }
    }
}
