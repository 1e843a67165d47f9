package dev.tributary.client;

import dev.tributary.client.admin.Admin;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.internal.AdminImpl;
import dev.tributary.client.internal.BucketLeaders;
import dev.tributary.client.internal.ChannelPool;
import dev.tributary.client.internal.CoordinatorRoute;
import dev.tributary.client.internal.RpcClient;
import dev.tributary.client.internal.ServerAddresses;
import dev.tributary.client.internal.TableMetadataCache;
import dev.tributary.client.internal.WriterCore;
import dev.tributary.client.lookup.Lookuper;
import dev.tributary.client.scan.LogScanner;
import dev.tributary.client.tiering.TieringGateway;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.concurrent.DaemonThreads;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * A connection to a Tributary server (one of a list of addresses): the entry point of the Java
 * client. Thread safe and meant to be shared; close it when done (writers should be closed first).
 *
 * <p>In a cluster, writes, scans and lookups of a bucket go to the server holding it and
 * coordinator calls follow the coordinator: the connection opens a channel to each such server on
 * first use, and closes them all with itself. Buckets of the server it connected to, and a lone
 * server's, stay on the connection's own channel.
 *
 * <pre>{@code
 * try (Connection conn = Connection.builder().address("127.0.0.1:9123").token(secret).build()) {
 *     conn.admin().createDatabase("shop", true);
 *     ...
 * }
 * }</pre>
 */
public final class Connection implements AutoCloseable {
    private final ChannelPool channels;
    private final BucketLeaders leaders;
    private final CoordinatorRoute coordinator;
    private final Configuration options;
    private final TableMetadataCache cache;
    private final Admin admin;
    private final ScheduledExecutorService scheduler;
    private final Map<String, WriterCore> cores = new HashMap<>();

    private Connection(String address, String token, Configuration options) {
        options.validate(ClientOptions.all());
        this.options = options;
        Duration timeout = options.get(ClientOptions.REQUEST_TIMEOUT);
        this.channels =
                new ChannelPool(
                        new RpcClient(address, token, timeout),
                        server -> new RpcClient(server, token, timeout));
        this.leaders = new BucketLeaders(channels);
        this.coordinator =
                new CoordinatorRoute(
                        channels,
                        ServerAddresses.parse(address).all().stream()
                                .map(ServerAddresses.HostPort::toString)
                                .toList());
        this.cache = new TableMetadataCache(coordinator);
        this.admin = new AdminImpl(coordinator, cache);
        ScheduledThreadPoolExecutor timer =
                new ScheduledThreadPoolExecutor(1, DaemonThreads.named("tributary-client-timer"));
        timer.setRemoveOnCancelPolicy(true);
        this.scheduler = timer;
    }

    /** Connects without a token and with default options. */
    public static Connection open(String address) {
        return builder().address(address).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Admin admin() {
        return admin;
    }

    /**
     * A writer for a log table. Writers of one table on this connection share their batches
     * (flushing one flushes the rows of all); the table's schema is read when the writer is
     * created.
     */
    public AppendWriter appendWriter(TablePath path) {
        return new AppendWriter(newCore(path, false));
    }

    /** A writer for a primary-key table. */
    public UpsertWriter upsertWriter(TablePath path) {
        return new UpsertWriter(newCore(path, true));
    }

    public LogScanner logScanner(TablePath path) {
        return new LogScanner(leaders, cache, cache.refresh(path));
    }

    public Lookuper lookuper(TablePath path) {
        return new Lookuper(leaders, cache, cache.refresh(path));
    }

    /** Internal: the tiering job's gateway to the coordinator. */
    public TieringGateway tieringGateway() {
        return new TieringGateway(coordinator, leaders);
    }

    /**
     * Writers of one table on one connection share a core, so that rows of several threads fill the
     * same batches and a bucket has one request in flight, not one per writer. A table re-created
     * or altered since gets a fresh core; writers of the old one keep it.
     */
    private synchronized WriterCore newCore(TablePath path, boolean upsert) {
        TableInfo info = cache.refresh(path);
        String key = (upsert ? "upsert:" : "append:") + path;
        WriterCore core = cores.get(key);
        if (core == null
                || core.isClosed()
                || core.table().tableId() != info.tableId()
                || core.table().schemaId() != info.schemaId()) {
            core = new WriterCore(leaders, info, upsert, options, scheduler);
            cores.put(key, core);
        }
        core.retain();
        return core;
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        channels.close();
    }

    /** Builds a {@link Connection}. */
    public static final class Builder {
        private String address;
        private String token;
        private final Configuration options = new Configuration();

        /**
         * {@code host:port} of a server's gRPC endpoint, or several separated by commas (IPv6 hosts
         * in brackets): the connection uses the first that answers, in the given order, and moves
         * to the next when it goes away. Malformed addresses fail {@link #build()} with an {@link
         * dev.tributary.common.exception.InvalidInputException} naming the entry.
         */
        public Builder address(String hostPort) {
            this.address = hostPort;
            return this;
        }

        /** The shared bearer token ({@code security.token} of the server); null for none. */
        public Builder token(String bearerToken) {
            this.token = bearerToken;
            return this;
        }

        /** Sets a {@link ClientOptions} value by key. */
        public Builder option(String key, String value) {
            options.setString(key, value);
            return this;
        }

        public Builder options(Configuration config) {
            config.toMap().forEach(options::setString);
            return this;
        }

        public Connection build() {
            return new Connection(address, token, options);
        }
    }
}
