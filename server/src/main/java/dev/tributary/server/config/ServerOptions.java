package dev.tributary.server.config;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.ConfigOptions;
import java.time.Duration;
import java.util.List;

/** Options of the server process itself (ports, data directory, security, maintenance). */
public final class ServerOptions {
    private ServerOptions() {}

    public static final ConfigOption<String> DATA_DIR =
            ConfigOptions.key("data.dir")
                    .stringType()
                    .defaultValue("tributary-data")
                    .withDescription(
                            "Directory holding the buckets, KV state and coordinator metadata;"
                                    + " relative paths are resolved against the working"
                                    + " directory.");

    public static final ConfigOption<String> BIND_HOST =
            ConfigOptions.key("server.bind-host")
                    .stringType()
                    .defaultValue("127.0.0.1")
                    .withDescription(
                            "Address the gRPC and HTTP endpoints listen on. Loopback by default;"
                                    + " use 0.0.0.0 to accept remote clients (set"
                                    + " security.token then).");

    public static final ConfigOption<String> ADVERTISED_HOST =
            ConfigOptions.key("server.advertised-host")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "Host other servers and clients use to reach this server, recorded in"
                                    + " its cluster registration with the bound ports (Kafka's"
                                    + " advertised.listeners). Empty: server.bind-host, or this"
                                    + " machine's address when the bind host is a wildcard"
                                    + " (0.0.0.0 or ::), which no other machine can connect to.");

    public static final ConfigOption<Integer> RPC_PORT =
            ConfigOptions.key("server.rpc.port")
                    .intType()
                    .check(p -> p >= 0 && p <= 65535, "between 0 and 65535")
                    .defaultValue(9123)
                    .withDescription("gRPC port; 0 picks a free port (printed at start).");

    public static final ConfigOption<Integer> HTTP_PORT =
            ConfigOptions.key("server.http.port")
                    .intType()
                    .check(p -> p >= -1 && p <= 65535, "between -1 and 65535")
                    .defaultValue(9124)
                    .withDescription(
                            "HTTP port for /health, /metrics and /api; 0 picks a free port, -1"
                                    + " disables HTTP.");

    public static final ConfigOption<Duration> LAG_HISTORY_INTERVAL =
            ConfigOptions.key("server.http.lag-history.interval")
                    .durationType()
                    .check(d -> d.toMillis() >= 10, "at least 10ms")
                    .defaultValue(Duration.ofSeconds(5))
                    .withDescription(
                            "How often the server samples every lake table's lag (in time and"
                                    + " records) for the lag plot at http://<host>:<http.port>/"
                                    + " and /api/tiering/history.");

    public static final ConfigOption<Duration> LAG_HISTORY_RETENTION =
            ConfigOptions.key("server.http.lag-history.retention")
                    .durationType()
                    .check(d -> d.toMillis() >= 10, "at least 10ms")
                    .defaultValue(Duration.ofHours(1))
                    .withDescription(
                            "How far back the lag history goes; older samples are dropped."
                                    + " Memory is bounded: retention / interval samples per"
                                    + " table (at most 100000).");

    public static final ConfigOption<Duration> LAG_HISTORY_SAVE_INTERVAL =
            ConfigOptions.key("server.http.lag-history.save-interval")
                    .durationType()
                    .check(d -> d.toMillis() >= 10, "at least 10ms")
                    .defaultValue(Duration.ofMinutes(1))
                    .withDescription(
                            "How often the lag history is saved to <data.dir>/status/lag-history.bin"
                                    + " (rewritten whole, atomically, with fsync) so that the plot"
                                    + " survives a restart; also saved at shutdown. A crash loses"
                                    + " at most this much of the plot.");

    public static final ConfigOption<String> SECURITY_TOKEN =
            ConfigOptions.key("security.token")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "Shared bearer token. When set, every gRPC call and every HTTP call"
                                    + " except /health must carry 'Authorization: Bearer"
                                    + " <token>'.");

    public static final ConfigOption<Duration> MAINTENANCE_INTERVAL =
            ConfigOptions.key("server.maintenance.interval")
                    .durationType()
                    .check(d -> !d.isNegative() && !d.isZero(), "must be > 0")
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription(
                            "How often the server runs the store's KV snapshot and retention"
                                    + " passes and hands it the tiered offsets the coordinator"
                                    + " recorded.");

    public static final ConfigOption<Duration> SHUTDOWN_TIMEOUT =
            ConfigOptions.key("server.shutdown.timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(30))
                    .withDescription(
                            "How long a graceful shutdown waits for in-flight calls before"
                                    + " cancelling them.");

    public static final ConfigOption<Integer> READ_CHUNK_BYTES =
            ConfigOptions.key("server.read.chunk-bytes")
                    .intType()
                    .check(n -> n >= 1024 && n <= (32 << 20), "between 1024 and 33554432")
                    .defaultValue(1 << 20)
                    .withDescription(
                            "Default size of one streamed log or snapshot message, in bytes.");

    public static final ConfigOption<Duration> PLAN_RATE_WINDOW =
            ConfigOptions.key("server.plan.rate-window")
                    .durationType()
                    .check(d -> d.toMillis() >= 1000, "at least 1s")
                    .defaultValue(Duration.ofMinutes(5))
                    .withDescription(
                            "The tiering planner (tributary plan, /api/tiering/plan) measures each"
                                    + " table's write rate as the growth of its buckets' end"
                                    + " offsets over this much of the recent past, sampled with the"
                                    + " lag history (server.http.lag-history.interval).");

    public static List<ConfigOption<?>> all() {
        return List.of(
                DATA_DIR,
                BIND_HOST,
                ADVERTISED_HOST,
                RPC_PORT,
                HTTP_PORT,
                LAG_HISTORY_INTERVAL,
                LAG_HISTORY_RETENTION,
                LAG_HISTORY_SAVE_INTERVAL,
                PLAN_RATE_WINDOW,
                SECURITY_TOKEN,
                MAINTENANCE_INTERVAL,
                SHUTDOWN_TIMEOUT,
                READ_CHUNK_BYTES);
    }
}
