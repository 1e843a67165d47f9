package dev.tributary.cli.command;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.UnauthenticatedException;
import dev.tributary.coordinator.tiering.QueuePolicy;
import dev.tributary.planner.PlanReport;
import dev.tributary.planner.TieringPlanner;
import dev.tributary.planner.report.PlanJson;
import dev.tributary.planner.report.PlanText;
import dev.tributary.planner.sim.SimulationSettings;
import dev.tributary.planner.workload.Workload;
import dev.tributary.planner.yaml.Quantities;
import dev.tributary.planner.yaml.WorkloadFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tributary plan}: the tiering advisor (T44). Live, it reads the workload a server measured
 * ({@code /api/tiering/workload}: tables, write rates, live jobs with their parallelism and a
 * reader model fitted to their rounds); what-if, it reads one from a YAML file. Either way it runs
 * the coordinator's own logic on it in simulated time and prints, per table, the round duration,
 * queue wait, lag at p99 and peak against the lag target, force-finishes and the verdict, then
 * changes whose effect it simulated the same way.
 */
@Command(
        name = "plan",
        mixinStandardHelpOptions = true,
        description = {
            "Predicts each lake table's real lake lag by running the coordinator's own scheduling"
                    + " on the workload in simulated time, and says what to change.",
            "Live (default): the workload the server measured (tables, write rates, jobs and their"
                    + " readers). What-if: --file WORKLOAD.yaml (see conf/plan/*.yaml;"
                    + " --save-workload writes the live one in that form).",
            "A table meets its target when its p99 lag stays within table.datalake.lag-target,"
                    + " by default twice its freshness."
        })
public final class PlanCommand implements Callable<Integer> {
    @Option(
            names = {"-f", "--file"},
            paramLabel = "WORKLOAD.yaml",
            description = "What-if: plan this workload (YAML or JSON) instead of the server's.")
    Path file;

    @Option(
            names = "--http",
            paramLabel = "HOST:PORT",
            defaultValue = "${env:TRIBUTARY_HTTP_ADDRESS:-127.0.0.1:9124}",
            description =
                    "Live: the server's HTTP address (default: ${DEFAULT-VALUE}, env"
                            + " TRIBUTARY_HTTP_ADDRESS).")
    String http;

    @Option(
            names = "--token",
            defaultValue = "${env:TRIBUTARY_TOKEN}",
            description = "Live: the server's bearer token (env TRIBUTARY_TOKEN).")
    String token;

    @Option(
            names = "--horizon",
            paramLabel = "DURATION",
            description =
                    "Simulated time, e.g. 2h (default: the file's, or twenty freshness intervals of"
                            + " the slowest table, at least 1h).")
    String horizon;

    @Option(
            names = "--policy",
            paramLabel = "POLICY",
            description = "Simulate with this queue policy instead: fifo or deadline.")
    String policy;

    @Option(
            names = "--timeline",
            arity = "0..1",
            paramLabel = "DURATION",
            fallbackValue = "10min",
            description =
                    "Also print who is granted and commits when, over the first DURATION (default"
                            + " 10min), as the tiering guide's walkthrough tells it.")
    String timeline;

    @Option(
            names = "--no-recommendations",
            description = "Only predict; do not search for changes (each is a simulation more).")
    boolean noRecommendations;

    @Option(
            names = "--save-workload",
            paramLabel = "FILE",
            description = "Write the workload planned (measured or read) to FILE as YAML.")
    Path saveWorkload;

    @Option(names = "--json", description = "Print the plan as JSON.")
    boolean json;

    @Option(names = "--seed", description = "Seed of the simulated split shuffles.")
    Long seed;

    @Spec CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        WorkloadFile.Parsed parsed = file != null ? readFile(file) : fetchLive();
        Workload workload = parsed.workload();
        SimulationSettings settings = parsed.settings();
        if (policy != null) {
            workload = workload.withQueuePolicy(parsePolicy(policy));
        }
        if (horizon != null) {
            settings = settings.withHorizon(Quantities.duration(horizon, "--horizon"));
        }
        if (seed != null) {
            settings = settings.withSeed(seed);
        }
        long timelineMillis =
                timeline == null ? 0 : Quantities.duration(timeline, "--timeline").toMillis();
        if (saveWorkload != null) {
            Files.writeString(
                    saveWorkload, WorkloadFile.toYaml(workload, settings), StandardCharsets.UTF_8);
        }
        PlanReport report = TieringPlanner.plan(workload, settings, !noRecommendations);
        if (json) {
            out.println(
                    new ObjectMapper()
                            .enable(SerializationFeature.INDENT_OUTPUT)
                            .writeValueAsString(PlanJson.toMap(report)));
        } else {
            out.print(
                    (file != null
                                    ? "What-if plan of " + file
                                    : "Live plan of the server at " + http)
                            + System.lineSeparator());
            out.print(PlanText.format(report, timelineMillis));
            if (saveWorkload != null) {
                out.println(System.lineSeparator() + "workload written to " + saveWorkload);
            }
        }
        out.flush();
        return 0;
    }

    private static QueuePolicy parsePolicy(String p) {
        try {
            return QueuePolicy.valueOf(p.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException(
                    "--policy '" + p + "' is not a queue policy: fifo or deadline");
        }
    }

    private static WorkloadFile.Parsed readFile(Path f) throws IOException {
        String text;
        try {
            text = Files.readString(f, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new InvalidInputException("workload file " + f + " does not exist");
        }
        return WorkloadFile.parse(text, f.toString());
    }

    /** The server's measured workload, in the file's form. */
    private WorkloadFile.Parsed fetchLive() throws IOException {
        String url = "http://" + http + "/api/tiering/workload";
        HttpRequest.Builder req =
                HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET();
        if (token != null && !token.isEmpty()) {
            req.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> resp;
        try {
            resp =
                    HttpClient.newBuilder()
                            .connectTimeout(Duration.ofSeconds(5))
                            .build()
                            .send(req.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new RetriableException(
                    "cannot reach the server's HTTP endpoint at "
                            + http
                            + " ("
                            + e
                            + "); start the server, pass --http HOST:PORT (its"
                            + " server.http.port), or plan a what-if with --file",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RetriableException("interrupted while asking " + url, e);
        }
        if (resp.statusCode() == 401) {
            throw new UnauthenticatedException(
                    "the server at "
                            + http
                            + " refused the token; pass --token or TRIBUTARY_TOKEN");
        }
        if (resp.statusCode() != 200) {
            throw new RetriableException(
                    "the server at "
                            + http
                            + " answered "
                            + resp.statusCode()
                            + ": "
                            + resp.body());
        }
        return WorkloadFile.parse(resp.body(), "the workload of the server at " + http);
    }
}
