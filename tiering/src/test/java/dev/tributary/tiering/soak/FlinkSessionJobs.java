package dev.tributary.tiering.soak;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tiering job as a production user runs it on Flink: a session cluster of one JobManager
 * ({@code StandaloneSessionClusterEntrypoint}) and two TaskManagers ({@code TaskManagerRunner}),
 * each in its own JVM with only Flink and logging on its class path, and the {@code tiering/dist}
 * job jar submitted with Flink's own {@code CliFrontend} ({@code flink run -d}). Faults: a
 * TaskManager SIGKILLed (Flink restarts the job's tasks), the JobManager SIGKILLed and started
 * again, then the job submitted again (an operator without Flink HA), and a second job submitted
 * for a while, then cancelled.
 */
final class FlinkSessionJobs implements TieringJobs {
    private static final Pattern SUBMITTED = Pattern.compile("JobID ([0-9a-f]{32})");

    /** What a Flink distribution's lib holds (and the CLI needs): Flink, its deps, logging. */
    private static final List<String> FLINK_DIST =
            List.of(
                    "/org/apache/flink/",
                    "/org/apache/commons/commons-lang3/",
                    "/org/apache/commons/commons-text/",
                    "/org/apache/commons/commons-compress/",
                    "/org/apache/commons/commons-math3/",
                    "/org/snakeyaml/",
                    "/com/esotericsoftware/",
                    "/org/objenesis/",
                    "/commons-collections/",
                    "/org/roaringbitmap/",
                    "/commons-io/",
                    "/org/javassist/",
                    "/org/xerial/snappy/",
                    "/tools/profiler/",
                    "/at/yawk/lz4/",
                    "/commons-cli/",
                    "/com/google/code/findbugs/",
                    "/org/apache/logging/log4j/",
                    "/org/slf4j/slf4j-api/");

    private final Path logDir;
    private final Path confDir;
    private final Path jobJar;
    private final Function<String, List<String>> jobArgs;
    private final String classPath;
    private final HttpClient http = HttpClient.newHttpClient();
    private final int restPort;
    private final int rpcPort;
    private SoakProcess jobManager;
    private final SoakProcess[] taskManagers = new SoakProcess[2];
    private String jobId;
    private final String tieringJobId = "job-flink";
    private int submissions;
    private final double durationScale;
    private ResourceParams jmParams;
    private ResourceParams tmParams;

    FlinkSessionJobs(
            Path logDir,
            Path workDir,
            Path jobJar,
            Function<String, List<String>> jobArgs,
            double durationScale)
            throws IOException {
        this.durationScale = durationScale;
        this.logDir = logDir;
        this.confDir = workDir.resolve("flink-conf");
        this.jobJar = jobJar;
        this.jobArgs = jobArgs;
        if (jobJar == null || !Files.isRegularFile(jobJar)) {
            throw new IllegalArgumentException(
                    "the Flink cluster soak needs the tiering/dist job jar, got " + jobJar);
        }
        this.restPort = freePort();
        this.rpcPort = freePort();
        this.classPath = flinkClassPath();
        Files.createDirectories(confDir);
        Path tmp = workDir.resolve("flink-tmp");
        Files.createDirectories(tmp);
        String conf =
                String.join(
                        "\n",
                        "jobmanager.rpc.address: localhost",
                        "jobmanager.rpc.port: " + rpcPort,
                        "jobmanager.bind-host: localhost",
                        "rest.address: localhost",
                        "rest.bind-address: localhost",
                        "rest.port: " + restPort,
                        "taskmanager.bind-host: localhost",
                        "taskmanager.host: localhost",
                        "taskmanager.numberOfTaskSlots: 2",
                        "parallelism.default: 2",
                        "jobmanager.memory.process.size: 1024m",
                        "taskmanager.memory.process.size: 1280m",
                        "taskmanager.memory.managed.size: 32m",
                        "taskmanager.memory.network.min: 64m",
                        "taskmanager.memory.network.max: 64m",
                        "heartbeat.interval: 1000",
                        "heartbeat.timeout: 6000",
                        "restart-strategy.type: fixed-delay",
                        "restart-strategy.fixed-delay.attempts: 2147483647",
                        "restart-strategy.fixed-delay.delay: 1 s",
                        "classloader.check-leaked-classloader: false",
                        "io.tmp.dirs: " + tmp,
                        "");
        Files.writeString(confDir.resolve("config.yaml"), conf, StandardCharsets.UTF_8);
        Files.writeString(
                confDir.resolve("log4j2.properties"),
                String.join(
                        "\n",
                        "rootLogger.level = WARN",
                        "rootLogger.appenderRef.console.ref = console",
                        "appender.console.type = Console",
                        "appender.console.name = console",
                        "appender.console.layout.type = PatternLayout",
                        "appender.console.layout.pattern = %d{HH:mm:ss,SSS} %-5p %-30c{1} %m%n",
                        "logger.tributary.name = dev.tributary",
                        "logger.tributary.level = INFO",
                        "logger.te.name = org.apache.flink.runtime.taskexecutor",
                        "logger.te.level = INFO",
                        "logger.eg.name = org.apache.flink.runtime.executiongraph.ExecutionGraph",
                        "logger.eg.level = INFO",
                        ""),
                StandardCharsets.UTF_8);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** The entries of this JVM's class path that a Flink distribution would hold. */
    static String flinkClassPath() {
        List<String> keep = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String norm = e.replace(File.separatorChar, '/');
            if (FLINK_DIST.stream().anyMatch(norm::contains)) {
                keep.add(e);
            }
        }
        return String.join(File.pathSeparator, keep);
    }

    /** The JVM options Flink's distribution starts its processes with (env.java.opts.all). */
    private static final List<String> FLINK_JVM_OPTS =
            List.of(
                    "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
                    "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
                    "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
                    "--add-opens=java.base/java.io=ALL-UNNAMED",
                    "--add-opens=java.base/java.net=ALL-UNNAMED",
                    "--add-opens=java.base/java.nio=ALL-UNNAMED",
                    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                    "--add-opens=java.base/java.text=ALL-UNNAMED",
                    "--add-opens=java.base/java.time=ALL-UNNAMED",
                    "--add-opens=java.base/java.util=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

    private List<String> jvm(String heap) {
        List<String> o = new ArrayList<>(SoakProcess.smallJvm(heap));
        o.addAll(FLINK_JVM_OPTS);
        o.add("-Dlog4j.configurationFile=" + confDir.resolve("log4j2.properties"));
        return o;
    }

    /** JVM options and dynamic settings of a Flink process, as Flink's start scripts get them. */
    private record ResourceParams(List<String> jvm, List<String> dynamic) {}

    /**
     * Runs Flink's {@code BashJavaUtils} on the configuration (what {@code jobmanager.sh} and
     * {@code taskmanager.sh} do): the memory sizes as JVM options, and the fine-grained resource
     * settings a TaskManager refuses to start without, as {@code -D key=value} arguments.
     */
    private ResourceParams resourceParams(String command) throws Exception {
        SoakProcess p =
                SoakProcess.start(
                        "bash-java-utils",
                        logDir.resolve("flink-bash-java-utils.out"),
                        classPath,
                        jvm("128m"),
                        "org.apache.flink.runtime.util.bash.BashJavaUtils",
                        List.of(command, "--configDir", confDir.toString()),
                        Map.of("FLINK_CONF_DIR", confDir.toString()));
        p.awaitExit(Duration.ofMinutes(1));
        List<String> results =
                p.outputOfThisRun()
                        .lines()
                        .filter(l -> l.startsWith("BASH_JAVA_UTILS_EXEC_RESULT:"))
                        .map(l -> l.substring("BASH_JAVA_UTILS_EXEC_RESULT:".length()).strip())
                        .toList();
        if (results.size() < 2) {
            throw new IllegalStateException(
                    command + " failed:\n" + StandaloneJobs.tail(p.outputOfThisRun()));
        }
        List<String> dynamic = new ArrayList<>();
        for (String t : results.get(1).split(" ")) {
            if (!t.isBlank()) {
                dynamic.add(t);
            }
        }
        return new ResourceParams(List.of(results.get(0).split(" ")), dynamic);
    }

    private List<String> processJvm(ResourceParams params) {
        List<String> o = new ArrayList<>(params.jvm());
        o.add("-XX:+UseSerialGC");
        o.add("-XX:TieredStopAtLevel=1");
        o.addAll(FLINK_JVM_OPTS);
        o.add("-Dlog4j.configurationFile=" + confDir.resolve("log4j2.properties"));
        return o;
    }

    private List<String> processArgs(ResourceParams params) {
        List<String> a = new ArrayList<>(List.of("--configDir", confDir.toString()));
        a.addAll(params.dynamic());
        return a;
    }

    private void startJobManager() throws Exception {
        jobManager =
                SoakProcess.start(
                        "jobmanager",
                        logDir.resolve("jobmanager.out"),
                        classPath,
                        processJvm(jmParams),
                        "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
                        processArgs(jmParams),
                        Map.of("FLINK_CONF_DIR", confDir.toString()));
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (rest("/overview") == null) {
            if (System.nanoTime() > deadline || !jobManager.isAlive()) {
                throw new IllegalStateException(
                        "the JobManager did not start:\n"
                                + StandaloneJobs.tail(jobManager.outputOfThisRun()));
            }
            Thread.sleep(250);
        }
    }

    private void startTaskManager(int i) throws Exception {
        taskManagers[i] =
                SoakProcess.start(
                        "taskmanager-" + i,
                        logDir.resolve("taskmanager-" + i + ".out"),
                        classPath,
                        processJvm(tmParams),
                        "org.apache.flink.runtime.taskexecutor.TaskManagerRunner",
                        processArgs(tmParams),
                        Map.of("FLINK_CONF_DIR", confDir.toString()));
        if (!taskManagers[i].awaitOutput(
                "Successful registration at resource manager", Duration.ofSeconds(120))) {
            throw new IllegalStateException(
                    "TaskManager "
                            + i
                            + " did not register:\n"
                            + StandaloneJobs.tail(taskManagers[i].outputOfThisRun()));
        }
    }

    /** {@code flink run -d} of the job jar; the Flink job id. */
    private String submit(String tieringId) throws Exception {
        submissions++;
        List<String> args = new ArrayList<>();
        args.addAll(
                List.of(
                        "run",
                        "-d",
                        "-p",
                        "2",
                        "-c",
                        "dev.tributary.tiering.job.TieringJobMain",
                        jobJar.toString()));
        args.addAll(jobArgs.apply(tieringId));
        SoakProcess cli =
                SoakProcess.start(
                        "flink-run-" + submissions,
                        logDir.resolve("flink-cli.out"),
                        classPath,
                        jvm("256m"),
                        "org.apache.flink.client.cli.CliFrontend",
                        args,
                        Map.of("FLINK_CONF_DIR", confDir.toString()));
        int rc = cli.awaitExit(Duration.ofMinutes(3));
        String out = cli.outputOfThisRun();
        Matcher m = SUBMITTED.matcher(out);
        if (rc != 0 || !m.find()) {
            cli.close();
            throw new IllegalStateException(
                    "flink run failed (exit " + rc + "):\n" + StandaloneJobs.tail(out));
        }
        String id = m.group(1);
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            if ("RUNNING".equals(state(id))) {
                return id;
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("Flink job " + id + " is " + state(id) + ", not RUNNING");
    }

    private void cancel(String id) throws Exception {
        SoakProcess cli =
                SoakProcess.start(
                        "flink-cancel",
                        logDir.resolve("flink-cli.out"),
                        classPath,
                        jvm("256m"),
                        "org.apache.flink.client.cli.CliFrontend",
                        List.of("cancel", id),
                        Map.of("FLINK_CONF_DIR", confDir.toString()));
        cli.awaitExit(Duration.ofMinutes(2));
        cli.close();
    }

    /** The job's state from the JobManager's REST API, or null when it cannot be asked. */
    private String state(String id) {
        String body = rest("/jobs/" + id);
        if (body == null) {
            return null;
        }
        Matcher m = Pattern.compile("\"state\"\\s*:\\s*\"([A-Z]+)\"").matcher(body);
        return m.find() ? m.group(1) : null;
    }

    /** A GET of the JobManager's REST API; the body, or null unless it answered 200. */
    private String rest(String path) {
        try {
            HttpResponse<String> r =
                    http.send(
                            HttpRequest.newBuilder(
                                            URI.create("http://localhost:" + restPort + path))
                                    .timeout(Duration.ofSeconds(5))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? r.body() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    @Override
    public void start() throws Exception {
        jmParams = resourceParams("GET_JM_RESOURCE_PARAMS");
        tmParams = resourceParams("GET_TM_RESOURCE_PARAMS");
        startJobManager();
        startTaskManager(0);
        startTaskManager(1);
        jobId = submit(tieringJobId);
    }

    @Override
    public boolean supports(FaultKind kind) {
        return kind == FaultKind.TASKMANAGER_KILL
                || kind == FaultKind.JOBMANAGER_KILL
                || kind == FaultKind.SECOND_JOB;
    }

    @Override
    public String inject(FaultKind kind, Random random) throws Exception {
        switch (kind) {
            case TASKMANAGER_KILL -> {
                int i = random.nextInt(taskManagers.length);
                long pid = taskManagers[i].pid();
                taskManagers[i].kill();
                long gap = random.nextInt(3_000);
                Thread.sleep(gap);
                startTaskManager(i);
                return "killed TaskManager "
                        + i
                        + " (pid "
                        + pid
                        + "), started again after "
                        + gap
                        + " ms";
            }
            case JOBMANAGER_KILL -> {
                long pid = jobManager.pid();
                jobManager.kill();
                long gap = random.nextInt(2_000);
                Thread.sleep(gap);
                startJobManager();
                jobId = submit(tieringJobId);
                return "killed the JobManager (pid "
                        + pid
                        + "), started again after "
                        + gap
                        + " ms, job resubmitted as "
                        + jobId;
            }
            case SECOND_JOB -> {
                String tid = "job-flink-2-" + submissions;
                String second = submit(tid);
                long run = (long) ((5_000 + random.nextInt(10_000)) * durationScale);
                Thread.sleep(run);
                cancel(second);
                return "second Flink job "
                        + second
                        + " ("
                        + tid
                        + ") ran "
                        + run
                        + " ms, then cancelled";
            }
            default -> throw new IllegalArgumentException(kind.name());
        }
    }

    @Override
    public String checkRunning() throws Exception {
        StringBuilder found = new StringBuilder();
        if (!jobManager.isAlive()) {
            found.append("the JobManager exited by itself; ");
            startJobManager();
        }
        for (int i = 0; i < taskManagers.length; i++) {
            if (!taskManagers[i].isAlive()) {
                found.append("TaskManager ").append(i).append(" exited by itself; ");
                startTaskManager(i);
            }
        }
        String s = state(jobId);
        if (!"RUNNING".equals(s) && !"RESTARTING".equals(s) && !"CREATED".equals(s)) {
            found.append("the Flink job ").append(jobId).append(" is ").append(s).append("; ");
            jobId = submit(tieringJobId);
        }
        return found.length() == 0 ? null : found.toString();
    }

    @Override
    public void close() throws Exception {
        for (SoakProcess tm : taskManagers) {
            if (tm != null) {
                tm.close();
            }
        }
        if (jobManager != null) {
            jobManager.close();
        }
    }
}
