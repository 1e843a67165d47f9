package dev.tributary.server.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.rpc.AuthHeaders;
import dev.tributary.rpc.error.ErrorCode;
import dev.tributary.server.metrics.ServerMetrics;
import dev.tributary.server.rpc.AuthInterceptor;
import dev.tributary.server.status.TieringStatusService;
import dev.tributary.server.store.TableCatalog;
import dev.tributary.storage.BucketStore;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP endpoint: {@code /health} (always open), {@code /metrics} (Prometheus text), {@code
 * /api/tables} and {@code /api/tiering} (JSON, the T28 fields). With a token configured, every path
 * but {@code /health} needs {@code Authorization: Bearer <token>}.
 */
public final class HttpApi implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HttpApi.class);

    private final HttpServer server;
    private final ExecutorService executor;
    private final AuthInterceptor auth;
    private final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public HttpApi(
            InetSocketAddress bind,
            AuthInterceptor auth,
            ServerMetrics metrics,
            TableCatalog catalog,
            BucketStore store,
            TieringStatusService tiering)
            throws IOException {
        this.auth = auth;
        this.server = HttpServer.create(bind, 0);
        this.executor =
                Executors.newFixedThreadPool(
                        2,
                        r -> {
                            Thread t = new Thread(r, "tributary-http");
                            t.setDaemon(true);
                            return t;
                        });
        server.setExecutor(executor);
        server.createContext("/health", ex -> respond(ex, 200, "text/plain", "ok\n"));
        server.createContext(
                "/metrics",
                ex ->
                        guarded(
                                ex,
                                "text/plain; version=0.0.4; charset=utf-8",
                                () -> metrics.scrape(catalog, store, tiering)));
        server.createContext(
                "/api/tables",
                ex -> guarded(ex, "application/json", () -> toJson(tables(catalog, store))));
        server.createContext(
                "/api/tiering",
                ex -> guarded(ex, "application/json", () -> toJson(tiering.overview())));
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
                    500,
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
    }
}
