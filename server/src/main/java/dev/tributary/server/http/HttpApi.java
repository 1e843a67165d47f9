package dev.tributary.server.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.tributary.common.concurrent.DaemonThreads;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.planner.TieringPlanner;
import dev.tributary.planner.report.PlanJson;
import dev.tributary.planner.sim.SimulationSettings;
import dev.tributary.planner.workload.Workload;
import dev.tributary.planner.yaml.Quantities;
import dev.tributary.planner.yaml.WorkloadFile;
import dev.tributary.rpc.AuthHeaders;
import dev.tributary.rpc.error.ErrorCode;
import dev.tributary.server.cluster.ClusterMembership;
import dev.tributary.server.metrics.ServerMetrics;
import dev.tributary.server.plan.TieringPlanService;
import dev.tributary.server.rpc.AuthInterceptor;
import dev.tributary.server.status.ConsoleSnapshots;
import dev.tributary.server.status.LagHistory;
import dev.tributary.server.status.PageRequest;
import dev.tributary.server.status.ReplicaRows;
import dev.tributary.server.status.TieringStatusService;
import dev.tributary.server.store.LocalBuckets;
import dev.tributary.server.store.TableCatalog;
import dev.tributary.storage.BucketStore;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP endpoint: {@code /health} (always open), {@code /metrics} (Prometheus text), {@code
 * /api/tables}, {@code /api/tiering[?offset=0][&limit=50]} (JSON, the T28 fields: a page of the
 * lake tables, one row each, with the totals) and {@code /api/tiering?table=db.name} (one table
 * with its round history), {@code /api/tiering/history[?table=db.name]} (JSON, each lake table's
 * lag over time), {@code /api/tiering/plan[?horizon=1h][&recommend=false]} and {@code
 * /api/tiering/workload} (the tiering planner's prediction and the measured workload it simulates,
 * T44), {@code /api/cluster} (JSON, the servers registered in the cluster metadata and which one
 * coordinates, T49), {@code /api/console[?table=db.name][&since=millis][&offset=][&limit=]} (JSON,
 * one consistent snapshot per console refresh, of one page of tables) and the web console at {@code
 * /}, {@code /ui} and {@code /tables/<db.table>} (HTML). With a token configured, every path but
 * {@code /health} and the pages needs {@code Authorization: Bearer <token>}; the pages hold no data
 * and send the token on their own API calls.
 */
public final class HttpApi implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HttpApi.class);

    private final HttpServer server;

    /** The longest simulation the plan endpoints run on request (T55: bounded work per call). */
    private static final Duration MAX_HORIZON = Duration.ofDays(7);

    private final ExecutorService executor;
    private final AuthInterceptor auth;
    private final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private final String page = ConsolePage.load();
    private final ConsoleSnapshots console;
    private final TieringPlanService plans;

    public HttpApi(
            InetSocketAddress bind,
            AuthInterceptor auth,
            ServerMetrics metrics,
            TableCatalog catalog,
            BucketStore store,
            TieringStatusService tiering,
            LagHistory history,
            TieringPlanService plans,
            ClusterMembership cluster,
            LocalBuckets buckets)
            throws IOException {
        this.auth = auth;
        this.plans = plans;
        this.console =
                new ConsoleSnapshots(
                        tiering,
                        history,
                        plans,
                        () -> cluster.describe().toMap(),
                        tableId ->
                                ReplicaRows.of(
                                        buckets.replicas(tableId, ReplicaRows.MAX_PARTITIONS)));
        this.server = HttpServer.create(bind, 0);
        this.executor = Executors.newFixedThreadPool(2, DaemonThreads.named("tributary-http"));
        server.setExecutor(executor);
        server.createContext("/health", ex -> respond(ex, 200, "text/plain", "ok\n"));
        server.createContext(
                "/metrics",
                ex ->
                        guarded(
                                ex,
                                "text/plain; version=0.0.4; charset=utf-8",
                                () ->
                                        metrics.scrape(
                                                catalog,
                                                store,
                                                tiering,
                                                cluster.describe().replication())));
        server.createContext(
                "/api/tables",
                ex -> guarded(ex, "application/json", () -> toJson(tables(catalog, store))));
        server.createContext(
                "/api/tiering",
                ex -> guarded(ex, "application/json", () -> toJson(tiering(ex, tiering))));
        server.createContext(
                "/api/tiering/history",
                ex -> guarded(ex, "application/json", () -> toJson(history(ex, history))));
        server.createContext(
                "/api/tiering/plan",
                ex -> guarded(ex, "application/json", () -> toJson(plan(ex, plans))));
        server.createContext(
                "/api/tiering/workload",
                ex -> guarded(ex, "application/json", () -> toJson(workload(ex, plans))));
        server.createContext(
                "/api/console", ex -> guarded(ex, "application/json", () -> toJson(console(ex))));
        server.createContext(
                "/api/cluster",
                ex -> guarded(ex, "application/json", () -> toJson(cluster.describe().toMap())));
        server.createContext("/", this::pageOrNotFound);
        server.start();
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    private static List<Map<String, Object>> tables(TableCatalog catalog, BucketStore store) {
        List<TableInfo> all = new ArrayList<>(catalog.all());
        all.sort(Comparator.comparing(t -> t.path().toString()));
        List<Map<String, Object>> out = new ArrayList<>();
        for (TableInfo t : all) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("tableId", t.tableId());
            m.put("table", t.path().toString());
            m.put("schemaId", t.schemaId());
            m.put("schema", t.schema().toString());
            m.put("primaryKey", t.schema().primaryKey());
            m.put("buckets", t.descriptor().bucketCount());
            m.put("bucketKeys", t.descriptor().bucketKeys());
            m.put("properties", t.properties());
            m.put("createdAtMillis", t.createdTimeMillis());
            Map<Integer, Long> ends = new LinkedHashMap<>();
            for (int b = 0; b < t.descriptor().bucketCount(); b++) {
                try {
                    ends.put(b, store.endOffset(new TableBucket(t.tableId(), b)));
                } catch (RuntimeException dropped) {
                    // dropped concurrently
                }
            }
            m.put("endOffsets", ends);
            out.add(m);
        }
        return out;
    }

    /**
     * A page of the lake tables as rows ({@code offset=}, {@code limit=}, see {@link PageRequest}),
     * or with {@code table=db.t} that table's full view with its round history.
     */
    private static Object tiering(HttpExchange ex, TieringStatusService tiering) {
        Map<String, String> q =
                QueryParams.parse(
                        ex.getRequestURI().getRawQuery(),
                        "/api/tiering",
                        Set.of("table", "offset", "limit"));
        String table = q.get("table");
        if (table != null) {
            if (q.size() > 1) {
                throw new InvalidInputException(
                        "/api/tiering?table= answers one table: give no offset or limit with it");
            }
            return tiering.table(table);
        }
        return tiering.page(PageRequest.of(q, "/api/tiering"));
    }

    private static Object history(HttpExchange ex, LagHistory history) {
        Map<String, String> q =
                QueryParams.parse(
                        ex.getRequestURI().getRawQuery(), "/api/tiering/history", Set.of("table"));
        String table = q.get("table");
        return table == null ? history.view() : history.view(table);
    }

    /**
     * The tiering plan of the measured workload (T44): {@code horizon=<duration>} (default: twenty
     * freshness intervals of the slowest table, 1h to 1d), {@code recommend=false} to skip the
     * recommendations (each one is a simulation more).
     */
    private static Object plan(HttpExchange ex, TieringPlanService plans) {
        Map<String, String> q =
                QueryParams.parse(
                        ex.getRequestURI().getRawQuery(),
                        "/api/tiering/plan",
                        Set.of("horizon", "recommend"));
        Workload w = plans.workload();
        SimulationSettings s = settings(q, w, "/api/tiering/plan");
        boolean recommend = !"false".equalsIgnoreCase(q.getOrDefault("recommend", "true"));
        return PlanJson.toMap(TieringPlanner.plan(w, s, recommend));
    }

    /** The measured workload in the form {@code tributary plan --file} reads. */
    private static Object workload(HttpExchange ex, TieringPlanService plans) {
        Map<String, String> q =
                QueryParams.parse(
                        ex.getRequestURI().getRawQuery(),
                        "/api/tiering/workload",
                        Set.of("horizon"));
        Workload w = plans.workload();
        return WorkloadFile.toMap(w, settings(q, w, "/api/tiering/workload"));
    }

    private static SimulationSettings settings(Map<String, String> q, Workload w, String where) {
        SimulationSettings s = TieringPlanService.defaultSettings(w);
        String h = q.get("horizon");
        if (h != null) {
            Duration horizon = Quantities.duration(h, "horizon of " + where);
            // the simulation's cost grows with the horizon: an unbounded one holds an HTTP thread
            if (horizon.compareTo(MAX_HORIZON) > 0) {
                throw new InvalidInputException(
                        "horizon="
                                + h
                                + " for "
                                + where
                                + " is longer than "
                                + MAX_HORIZON.toDays()
                                + " days, the longest the planner simulates; give a shorter one");
            }
            s = s.withHorizon(horizon);
        }
        return s;
    }

    private Object console(HttpExchange ex) {
        Map<String, String> q =
                QueryParams.parse(
                        ex.getRequestURI().getRawQuery(),
                        "/api/console",
                        Set.of("table", "since", "offset", "limit"));
        long since = -1;
        String s = q.get("since");
        if (s != null) {
            try {
                since = Long.parseLong(s);
            } catch (NumberFormatException e) {
                throw new InvalidInputException(
                        "since='"
                                + s
                                + "' for /api/console is not a time; give the lastSampleMillis"
                                + " of the previous answer (milliseconds since 1970)");
            }
        }
        String table = q.get("table");
        return console.take(
                table == null || table.isEmpty() ? null : table,
                since,
                PageRequest.of(q, "/api/console"));
    }

    /** The context "/" catches every path no other context claims: only the page's are real. */
    private void pageOrNotFound(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath();
        if (ConsolePage.isPagePath(path)) {
            ex.getResponseHeaders()
                    .set("Content-Security-Policy", ConsolePage.CONTENT_SECURITY_POLICY);
            ex.getResponseHeaders().set("Cache-Control", "no-cache");
            respond(ex, 200, "text/html; charset=utf-8", page);
            return;
        }
        NotFoundException e =
                new NotFoundException(
                        "no HTTP resource at '"
                                + path
                                + "'; try / (the console), /tables/<db.table>, /health,"
                                + " /metrics, /api/tables, /api/tiering, /api/tiering/history,"
                                + " /api/tiering/plan, /api/tiering/workload, /api/cluster or"
                                + " /api/console");
        respond(
                ex,
                404,
                "application/json",
                toJson(Map.of("error", ErrorCode.NOT_FOUND.name(), "message", e.getMessage())));
    }

    private String toJson(Object o) {
        try {
            return json.writeValueAsString(o) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private void guarded(HttpExchange ex, String contentType, Supplier<String> body)
            throws IOException {
        if (auth != null) {
            String token = AuthHeaders.tokenOf(ex.getRequestHeaders().getFirst("Authorization"));
            if (token == null || !auth.matches(token)) {
                respond(
                        ex,
                        401,
                        "application/json",
                        toJson(
                                Map.of(
                                        "error",
                                        ErrorCode.UNAUTHENTICATED.name(),
                                        "message",
                                        token == null
                                                ? "this endpoint requires 'Authorization: Bearer"
                                                        + " <token>'"
                                                : "the bearer token is wrong")));
                return;
            }
        }
        String text;
        try {
            text = body.get();
        } catch (TributaryException e) {
            ErrorCode code = ErrorCode.forThrowable(e);
            respond(
                    ex,
                    httpStatus(code),
                    "application/json",
                    toJson(
                            Map.of(
                                    "error",
                                    code.name(),
                                    "message",
                                    String.valueOf(e.getMessage()))));
            return;
        } catch (RuntimeException e) {
            LOG.error("HTTP {} failed", ex.getRequestURI(), e);
            respond(ex, 500, "text/plain", "internal error: " + e + "\n");
            return;
        }
        respond(ex, 200, contentType, text);
    }

    private static int httpStatus(ErrorCode code) {
        return switch (code) {
            case NOT_FOUND -> 404;
            case INVALID_INPUT, INVALID_CONFIG -> 400;
            default -> 500;
        };
    }

    private static void respond(HttpExchange ex, int status, String contentType, String body)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", contentType);
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream os = ex.getResponseBody()) {
            os.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        if (plans != null) {
            plans.close();
        }
    }
}
