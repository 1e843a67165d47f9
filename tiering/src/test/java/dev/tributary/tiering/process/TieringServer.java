package dev.tributary.tiering.process;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.server.EmbeddedTieringExtension;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A real server (store, coordinator, gRPC) in the test JVM whose tables are tiered by jobs in other
 * processes: the lake extension creates the lake tables, but its embedded job is disabled.
 * Heartbeats are short so a dead job is noticed within seconds (T18).
 */
final class TieringServer implements AutoCloseable {
    static final Duration HEARTBEAT_INTERVAL = Duration.ofMillis(500);
    static final Duration HEARTBEAT_TIMEOUT = Duration.ofSeconds(3);

    private final TributaryServer server;
    private final Connection conn;
    private final File warehouse;
    private final String format;

    private TieringServer(TributaryServer server, File warehouse, String format) {
        this.server = server;
        this.conn = Connection.open(server.rpcTarget());
        this.warehouse = warehouse;
        this.format = format;
    }

    static TieringServer start(Path dataDir) {
        return start(dataDir, "paimon", 0);
    }

    /** A server on a fixed port, so that a job finds it again after a restart. */
    static TieringServer start(Path dataDir, int rpcPort) {
        return start(dataDir, "paimon", rpcPort);
    }

    /** A server tiering into {@code format} ("paimon" or "iceberg"). */
    static TieringServer start(Path dataDir, String format) {
        return start(dataDir, format, 0);
    }

    /** A server tiering into {@code format} on {@code rpcPort} (0: any free port). */
    static TieringServer start(Path dataDir, String format, int rpcPort) {
        File warehouse = dataDir.resolve("lake").toFile();
        Configuration conf = new Configuration();
        conf.setString("data.dir", dataDir.toString());
        conf.setString("server.rpc.port", Integer.toString(rpcPort));
        conf.setString("server.http.port", "-1");
        conf.setString("datalake.format", format);
        conf.setString("datalake." + format + ".warehouse", warehouse.toURI().toString());
        conf.setString("tiering.embedded.enabled", "false");
        conf.setString("tiering.heartbeat.interval", HEARTBEAT_INTERVAL.toMillis() + "ms");
        conf.setString("tiering.heartbeat.timeout", HEARTBEAT_TIMEOUT.toMillis() + "ms");
        // a timed-out table is queued again quickly, so the takeover is bounded by the timeout
        conf.setString("tiering.failure.backoff.base", "200ms");
        conf.setString("tiering.failure.backoff.max", "1s");
        TributaryServer server =
                TributaryServer.start(
                        conf, Clock.system(), List.of(new EmbeddedTieringExtension()));
        return new TieringServer(server, warehouse, format);
    }

    String format() {
        return format;
    }

    Connection connection() {
        return conn;
    }

    File warehouse() {
        return warehouse;
    }

    TableInfo createLakeTable(TablePath path, Schema schema, int buckets, String freshness) {
        conn.admin().createDatabase(path.database(), true);
        return conn.admin()
                .createTable(
                        path,
                        TableDescriptor.builder(schema)
                                .bucketCount(buckets)
                                .property("table.datalake.enabled", "true")
                                .property("table.datalake.freshness", freshness)
                                .build(),
                        false);
    }

    TableTieringStatus status(TablePath path) {
        return conn.admin().tieringStatus(path);
    }

    /**
     * Arguments of {@code TieringJobMain} (and of the gated test main) for a job of this server:
     * the same warehouse as the coordinator (the job learns heartbeats and commit settings from the
     * coordinator when it registers).
     */
    List<String> jobArgs(String jobId, long seed, Map<String, String> extra) {
        List<String> args = new ArrayList<>();
        args.addAll(List.of("--coordinator", "127.0.0.1:" + server.rpcPort()));
        args.addAll(List.of("--datalake.format", format));
        args.addAll(List.of("--datalake." + format + ".warehouse", warehouse.toURI().toString()));
        args.addAll(List.of("--tiering.job.id", jobId));
        args.addAll(List.of("--tiering.split.shuffle-seed", Long.toString(seed)));
        extra.forEach((k, v) -> args.addAll(List.of("--" + k, v)));
        return args;
    }

    @Override
    public void close() {
        try {
            conn.close();
        } finally {
            server.close();
        }
    }
}
