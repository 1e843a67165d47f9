package dev.tributary.server.metrics;

import dev.tributary.lake.api.io.ObjectStoreCounts;
import dev.tributary.lake.api.io.ObjectStoreRequest;
import dev.tributary.lake.api.io.ObjectStoreRequests;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Object-store requests by kind and bytes up and down per lake table (T47), cumulative since the
 * server started, as Prometheus counters: {@code tributary_lake_objectstore_requests_total{table,
 * kind}} and {@code tributary_lake_objectstore_bytes_total{table, direction}}. Requests that match
 * no table are under {@code table="other"}. A table's counters appear at its first request.
 */
final class ObjectStoreMetrics {
    private final MeterRegistry registry;
    private final ObjectStoreRequests requests;
    private final Set<String> registered = ConcurrentHashMap.newKeySet();

    ObjectStoreMetrics(MeterRegistry registry, ObjectStoreRequests requests) {
        this.registry = registry;
        this.requests = requests;
    }

    /** Registers the counters of tables seen since the last call; values are read at scrape. */
    void refresh() {
        for (Map.Entry<String, ObjectStoreCounts> e : requests.snapshotAll().entrySet()) {
            String table = e.getKey();
            if (e.getValue().totalRequests() == 0 || !registered.add(table)) {
                continue;
            }
            for (ObjectStoreRequest kind : ObjectStoreRequest.values()) {
                FunctionCounter.builder(
                                "tributary.lake.objectstore.requests",
                                requests,
                                r -> counts(r, table).requests(kind))
                        .description(
                                "Object-store requests of a lake table by kind, retries included"
                                        + " (Paimon: file-IO operations)")
                        .tag("table", table)
                        .tag("kind", kind.label())
                        .register(registry);
            }
            FunctionCounter.builder(
                            "tributary.lake.objectstore.bytes",
                            requests,
                            r -> counts(r, table).bytesUp())
                    .description("Bytes sent to and received from the object store")
                    .tag("table", table)
                    .tag("direction", "up")
                    .register(registry);
            FunctionCounter.builder(
                            "tributary.lake.objectstore.bytes",
                            requests,
                            r -> counts(r, table).bytesDown())
                    .description("Bytes sent to and received from the object store")
                    .tag("table", table)
                    .tag("direction", "down")
                    .register(registry);
        }
    }

    private static ObjectStoreCounts counts(ObjectStoreRequests r, String table) {
        return table.equals(ObjectStoreRequests.OTHER)
                ? r.snapshotOther()
                : r.snapshot(dev.tributary.common.id.TablePath.parse(table));
    }
}
