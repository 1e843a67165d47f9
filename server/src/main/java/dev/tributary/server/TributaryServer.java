package dev.tributary.server;

import dev.tributary.cluster.ClusterOptions;
import dev.tributary.cluster.RaftMetadataStore;
import dev.tributary.common.concurrent.DaemonThreads;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.Coordinator;
import dev.tributary.coordinator.CoordinatorOptions;
import dev.tributary.coordinator.cluster.PreferredLeaders;
import dev.tributary.coordinator.cluster.ServerLivenessOptions;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.coordinator.spi.LakeCommitStep;
import dev.tributary.coordinator.store.MetadataStore;
import dev.tributary.coordinator.tiering.TieringConfig;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStorageOptions;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.io.ObjectStoreRequests;
import dev.tributary.rpc.proto.DescribeLakeResponse;
import dev.tributary.server.cluster.AdvertisedHost;
import dev.tributary.server.cluster.ClusterMembership;
import dev.tributary.server.cluster.CoordinatorMetadata;
import dev.tributary.server.cluster.CoordinatorRole;
import dev.tributary.server.cluster.CoordinatorSuccession;
import dev.tributary.server.cluster.InSyncChangeSender;
import dev.tributary.server.cluster.LeadershipFollower;
import dev.tributary.server.cluster.ServerHeartbeater;
import dev.tributary.server.config.ServerOptions;
import dev.tributary.server.http.HttpApi;
import dev.tributary.server.lake.LakeCommitStepImpl;
import dev.tributary.server.lake.LakeMaintenanceStepImpl;
import dev.tributary.server.lake.LakeRowLocations;
import dev.tributary.server.lake.LakeTables;
import dev.tributary.server.lake.ObjectStoreCosts;
import dev.tributary.server.metrics.ServerMetrics;
import dev.tributary.server.partition.PartitionMaintenance;
import dev.tributary.server.partition.PartitionOptions;
import dev.tributary.server.partition.PartitionService;
import dev.tributary.server.plan.RoundObservations;
import dev.tributary.server.plan.TieringPlanService;
import dev.tributary.server.plan.WriteRates;
import dev.tributary.server.replica.ReplicaManager;
import dev.tributary.server.replica.ReplicaOptions;
import dev.tributary.server.rpc.AdminServiceImpl;
import dev.tributary.server.rpc.AuthInterceptor;
import dev.tributary.server.rpc.ClusterServiceImpl;
import dev.tributary.server.rpc.ReadServiceImpl;
import dev.tributary.server.rpc.ReplicaServiceImpl;
import dev.tributary.server.rpc.TieringServiceImpl;
import dev.tributary.server.rpc.WriteServiceImpl;
import dev.tributary.server.status.BucketEnds;
import dev.tributary.server.status.ClusterBucketEnds;
import dev.tributary.server.status.LagHistory;
import dev.tributary.server.status.LagHistoryFile;
import dev.tributary.server.status.LagHistorySaver;
import dev.tributary.server.status.LagSampler;
import dev.tributary.server.status.LakeLocation;
import dev.tributary.server.status.LocalBucketEnds;
import dev.tributary.server.status.TieringStatusService;
import dev.tributary.server.store.LocalBuckets;
import dev.tributary.server.store.Maintenance;
import dev.tributary.server.store.NewTableDefaults;
import dev.tributary.server.store.StoreBucketStates;
import dev.tributary.server.store.TableCatalog;
import dev.tributary.server.store.TableService;
import dev.tributary.storage.BucketStore;
import dev.tributary.storage.kv.KvOptions;
import dev.tributary.storage.log.LogOptions;
import io.grpc.BindableService;
import io.grpc.Server;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Tributary server: the bucket store, the coordinator (its event loop), the gRPC services, the
 * HTTP endpoint and store maintenance in one process.
 *
 * <p>In a test: {@code TributaryServer server = TributaryServer.start(conf)} with {@code data.dir}
 * set to a temporary directory and {@code server.rpc.port=0}, {@code server.http.port=0}; connect a
 * client to {@link #rpcTarget()}; {@link #close()} shuts it down gracefully. Starting again on the
 * same data directory recovers every table.
 */
public final class TributaryServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TributaryServer.class);

    /** The lag history's file under {@code <data.dir>/status}. */
    public static final String LAG_HISTORY_FILE = "lag-history.bin";

    private final Configuration conf;
    private final Path dataDir;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private DataDirLock dataDirLock;
    private BucketStore store;
    private MetadataStore metadata;
    private LakeStorage lake;
    private CoordinatorRole coordinatorRole;
    private ServerHeartbeater heartbeater;
    private ReplicaManager replicas;
    private ClusterBucketEnds clusterBucketEnds;
    private InSyncChangeSender inSyncChanges;
    private String advertisedRpcAddress;

    /** This process's instance id (T49): a restart is a new instance, fencing the old one. */
    private final String instanceId = UUID.randomUUID().toString();

    private String storageId;

    private Server grpc;
    private HttpApi http;
    private ScheduledExecutorService maintenance;
    private PartitionMaintenance partitionMaintenance;
    private LagHistorySaver lagSaver;
    private ServerMetrics metrics;
    private final ObjectStoreCosts objectStoreCosts =
            new ObjectStoreCosts(ObjectStoreRequests.global());
    private final List<ServerExtension> extensions = new ArrayList<>();
    private volatile Throwable fatal;
    private Configuration lakeConf;

    private TributaryServer(Configuration conf) {
        this.conf = conf;
        this.dataDir = Paths.get(conf.get(ServerOptions.DATA_DIR)).toAbsolutePath();
    }

    /** Starts a server with the system clock and the extensions found by ServiceLoader. */
    public static TributaryServer start(Configuration conf) {
        List<ServerExtension> found = new ArrayList<>();
        ServiceLoader.load(ServerExtension.class).forEach(found::add);
        return start(conf, Clock.system(), found);
    }

    /**
     * Starts a server.
     *
     * @throws InvalidConfigException for an invalid option (nothing is started)
     * @throws StorageException when the data directory or a port cannot be used, e.g. because
     *     another server holds the data directory
     */
    public static TributaryServer start(
            Configuration conf, Clock clock, List<ServerExtension> extensions) {
        conf.validate(ServerOptions.all());
        conf.validate(List.of(PartitionOptions.CHECK_INTERVAL));
        conf.validate(PreferredLeaders.options());
        conf.validate(CoordinatorOptions.all());
        conf.validate(ClusterOptions.all());
        conf.validate(ReplicaOptions.all());
        ServerLivenessOptions.validate(conf);
        conf.validate(
                List.of(
                        LogOptions.SEGMENT_SIZE,
                        LogOptions.INDEX_INTERVAL,
                        LogOptions.FLUSH_POLICY,
                        LogOptions.WRITER_STATE_EXPIRATION,
                        KvOptions.SNAPSHOT_INTERVAL,
                        KvOptions.SNAPSHOT_NUM_RETAINED,
                        KvOptions.LEASE_TIMEOUT,
                        KvOptions.ACKNOWLEDGEMENT_TIMEOUT,
                        KvOptions.KEY_ENCODING));
        LagHistory.capacityFor(
                conf.get(ServerOptions.LAG_HISTORY_INTERVAL),
                conf.get(ServerOptions.LAG_HISTORY_RETENTION));
        TributaryServer s = new TributaryServer(conf);
        try {
            s.startAll(clock, extensions);
            return s;
        } catch (RuntimeException | IOException e) {
            s.close();
            if (e instanceof RuntimeException re) {
                throw re;
            }
            throw new StorageException("cannot start the server: " + e.getMessage(), e);
        }
    }

    private void startAll(Clock clock, List<ServerExtension> exts) throws IOException {
        Files.createDirectories(dataDir);
        // before anything touches the directory: a second server must fail here
        dataDirLock = DataDirLock.acquire(dataDir);
        storageId = StorageId.readOrCreate(dataDir);
        store = BucketStore.open(dataDir.resolve("store"), conf, clock);
        metrics = new ServerMetrics();
        metadata =
                CoordinatorMetadata.open(
                        conf,
                        dataDir,
                        () ->
                                onCoordinatorFault(
                                        new FencedException(
                                                "this server lost the leadership of the cluster"
                                                        + " metadata")));
        ClusterMembership membership = ClusterMembership.of(conf, metadata, clock);
        coordinatorRole = new CoordinatorRole(membership::notCoordinator);
        // a lone server and a cluster of one coordinate from their start; a server of several
        // voters coordinates once (and while) it leads the quorum
        boolean coordinatesFromStart = CoordinatorMetadata.coordinatesFromStart(conf);
        TableCatalog catalog = new TableCatalog();
        // the store's buckets follow the metadata from here on, before the coordinator starts; a
        // server coordinating from its start holds the buckets not assigned yet (in a cluster of
        // several, the coordinator assigns every bucket of a table as it creates it)
        LocalBuckets held =
                new LocalBuckets(
                        membership.serverId(),
                        coordinatesFromStart,
                        store,
                        catalog,
                        id ->
                                Optional.ofNullable(metadata.servers().get(id))
                                        .map(ServerRegistration::rpcAddress),
                        metadata,
                        clock);
        String token = conf.get(ServerOptions.SECURITY_TOKEN);
        replicas =
                new ReplicaManager(
                        membership.serverId(),
                        store::replicaLog,
                        store::replicaKv,
                        id ->
                                Optional.ofNullable(metadata.servers().get(id))
                                        .map(ServerRegistration::rpcAddress),
                        token,
                        ReplicaOptions.Settings.of(conf),
                        clock,
                        () -> membership.storageRegistered(storageId));
        held.useReplicas(replicas);
        metadata.setListener(held);
        lakeConf = lakeConfiguration(conf, dataDir);
        lake = openLake(lakeConf);
        RoundObservations observed = new RoundObservations(clock);
        LakeCommitStep lakeStep =
                lake == null
                        ? null
                        : observed.timing(new LakeCommitStepImpl(lake, objectStoreCosts));
        if (lakeStep != null) {
            for (ServerExtension e : exts) {
                lakeStep = e.lakeCommitStep(lakeStep);
            }
        }
        LakeTables lakeTables = new LakeTables(lake);
        StoreBucketStates localBuckets = new StoreBucketStates(store, catalog);
        LakeCommitStep commitStep = lakeStep;
        CoordinatorSuccession succession =
                new CoordinatorSuccession(
                        coordinatorRole,
                        onFatal ->
                                Coordinator.start(
                                        conf,
                                        clock,
                                        metrics.timed(metadata),
                                        localBuckets,
                                        membership.serverId(),
                                        commitStep,
                                        lake == null
                                                ? null
                                                : new LakeMaintenanceStepImpl(
                                                        lake, objectStoreCosts),
                                        onFatal),
                        // a lone server and a cluster of one stop on any coordinator fault
                        !coordinatesFromStart && metadata instanceof RaftMetadataStore raft
                                ? raft
                                : null,
                        this::onCoordinatorFault,
                        clock);
        if (coordinatesFromStart) {
            coordinatorRole.took(succession.start());
        }
        membership.useCoordinator(coordinatorRole);
        extensions.addAll(exts);
        TableService tables =
                new TableService(
                        coordinatorRole,
                        catalog,
                        held,
                        lakeTables,
                        extensions,
                        new NewTableDefaults(conf.get(LakeStorageOptions.DATALAKE_FORMAT)));
        PartitionService partitions =
                new PartitionService(coordinatorRole, held, store, catalog, lakeTables, clock);
        partitionMaintenance =
                new PartitionMaintenance(held::allTables, partitions, coordinatorRole, clock);
        tables.usePartitions(partitions, partitionMaintenance);
        if (coordinatesFromStart) {
            tables.recover();
        }

        LocalBucketEnds localEnds = new LocalBucketEnds(store);
        BucketEnds bucketEnds = localEnds;
        if (metadata instanceof RaftMetadataStore) {
            // the lag of buckets led elsewhere is asked of their leaders
            clusterBucketEnds =
                    new ClusterBucketEnds(membership.serverId(), held, localEnds, token);
            bucketEnds = clusterBucketEnds;
        }
        TieringStatusService status =
                new TieringStatusService(
                        coordinatorRole,
                        store,
                        bucketEnds,
                        tables::table,
                        clock,
                        conf.get(CoordinatorOptions.HEARTBEAT_TIMEOUT),
                        LakeLocation.of(lakeConf),
                        partitions::list,
                        objectStoreCosts::view);
        AuthInterceptor auth = token.isEmpty() ? null : new AuthInterceptor(token);
        String host = conf.get(ServerOptions.BIND_HOST);
        List<BindableService> services =
                List.of(
                        new AdminServiceImpl(
                                coordinatorRole,
                                tables,
                                status,
                                partitions,
                                describeLake(lakeConf),
                                membership),
                        new WriteServiceImpl(store, held, metrics, partitions),
                        new ClusterServiceImpl(coordinatorRole, membership),
                        new ReplicaServiceImpl(replicas::leaderOf, store::replicaKv),
                        new ReadServiceImpl(
                                store, held, conf.get(ServerOptions.READ_CHUNK_BYTES), partitions),
                        new TieringServiceImpl(
                                coordinatorRole,
                                store,
                                held,
                                clock,
                                conf.get(KvOptions.LEASE_TIMEOUT),
                                observed::planned,
                                lake == null
                                        ? null
                                        : new LakeRowLocations(
                                                store::lakeRowIndex,
                                                lake::createRowScanner,
                                                catalog,
                                                t -> partitions.list(t.path()),
                                                clock)));
        NettyServerBuilder builder =
                NettyServerBuilder.forAddress(
                                new InetSocketAddress(host, conf.get(ServerOptions.RPC_PORT)))
                        // several 512 KB write batches per connection in flight without waiting for
                        // HTTP/2 window updates
                        .flowControlWindow(16 << 20)
                        .maxInboundMessageSize(64 << 20);
        // the last interceptor runs first: authentication before any extension's
        List<ServerInterceptor> interceptors = new ArrayList<>();
        for (ServerExtension e : extensions) {
            interceptors.addAll(e.rpcInterceptors());
        }
        if (auth != null) {
            interceptors.add(auth);
        }
        for (BindableService svc : services) {
            builder.addService(ServerInterceptors.intercept(svc.bindService(), interceptors));
        }
        try {
            grpc = builder.build().start();
        } catch (IOException e) {
            throw new StorageException(
                    "cannot listen on "
                            + host
                            + ":"
                            + conf.get(ServerOptions.RPC_PORT)
                            + " ("
                            + e.getMessage()
                            + "); choose another server.rpc.port",
                    e);
        }
        int httpPort = conf.get(ServerOptions.HTTP_PORT);
        LagHistory lagHistory = null;
        WriteRates writeRates = new WriteRates(conf.get(ServerOptions.PLAN_RATE_WINDOW).toMillis());
        if (httpPort >= 0) {
            lagHistory =
                    new LagHistory(
                            conf.get(ServerOptions.LAG_HISTORY_INTERVAL),
                            conf.get(ServerOptions.LAG_HISTORY_RETENTION));
            lagSaver =
                    new LagHistorySaver(
                            lagHistory,
                            new LagHistoryFile(dataDir.resolve("status").resolve(LAG_HISTORY_FILE)),
                            clock,
                            conf.get(ServerOptions.LAG_HISTORY_SAVE_INTERVAL));
            lagSaver.load();
            try {
                http =
                        new HttpApi(
                                new InetSocketAddress(host, httpPort),
                                auth,
                                metrics,
                                catalog,
                                store,
                                status,
                                lagHistory,
                                new TieringPlanService(
                                        status,
                                        held::known,
                                        writeRates,
                                        observed,
                                        TieringConfig.from(conf),
                                        clock),
                                membership,
                                held);
            } catch (IOException e) {
                throw new StorageException(
                        "cannot listen on "
                                + host
                                + ":"
                                + httpPort
                                + " ("
                                + e.getMessage()
                                + "); choose another server.http.port",
                        e);
            }
        }
        // once both endpoints are bound, so the registration holds the ports clients can use
        String advertised =
                AdvertisedHost.resolve(
                        conf.get(ServerOptions.ADVERTISED_HOST), host, AdvertisedHost.SYSTEM);
        advertisedRpcAddress = advertised + ":" + grpc.getPort();
        String advertisedHttpAddress =
                httpAddress().map(a -> advertised + ":" + a.getPort()).orElse("");
        Runnable tookOver =
                () -> {
                    if (membership.lostData(membership.serverId(), storageId)) {
                        // T53: this server came back without its data and now coordinates
                        coordinatorRole.current().serverLostData(membership.serverId()).join();
                    }
                    membership.register(advertisedRpcAddress, advertisedHttpAddress, storageId);
                    // tables created before any server registered (or before assignments
                    // existed) get theirs
                    coordinatorRole.current().assignMissingBuckets().join();
                };
        if (coordinatesFromStart) {
            tookOver.run();
        } else {
            // told at once when this server leads already, then at every change
            ((RaftMetadataStore) metadata)
                    .addLeadershipListener(
                            new LeadershipFollower(
                                    coordinatorRole,
                                    closed::get,
                                    () -> succession.takeOver(tookOver, tables::recover),
                                    succession::stepDown,
                                    this::onCoordinatorFault));
        }
        // the coordinator's server heartbeats itself over loopback, the same gRPC path the other
        // servers of a cluster take to it
        heartbeater =
                new ServerHeartbeater(
                        membership.serverId(),
                        instanceId,
                        storageId,
                        advertisedRpcAddress,
                        advertisedHttpAddress,
                        () -> membership.coordinatorRpcAddress(rpcTarget()),
                        token,
                        conf.get(ServerLivenessOptions.HEARTBEAT_INTERVAL),
                        localBuckets::heldBuckets);
        heartbeater.start();
        inSyncChanges =
                new InSyncChangeSender(
                        membership.serverId(),
                        () -> membership.coordinatorRpcAddress(rpcTarget()),
                        token);
        replicas.useInSyncChanges(inSyncChanges);
        ScheduledThreadPoolExecutor timer =
                new ScheduledThreadPoolExecutor(1, DaemonThreads.named("tributary-maintenance"));
        long every = conf.get(ServerOptions.MAINTENANCE_INTERVAL).toMillis();
        timer.scheduleWithFixedDelay(
                new Maintenance(
                        coordinatorRole,
                        store,
                        metadata instanceof RaftMetadataStore raft
                                ? () -> raft.localTieringRecords()
                                : Map::of),
                every,
                every,
                TimeUnit.MILLISECONDS);
        Duration keepMovedAway = conf.get(ReplicaOptions.MOVED_AWAY_DELETE_AFTER);
        long deleteEvery = Math.max(100, Math.min(every, keepMovedAway.toMillis() / 2));
        timer.scheduleWithFixedDelay(
                () -> {
                    try {
                        held.deleteMovedAwayCopies(keepMovedAway);
                    } catch (RuntimeException e) {
                        LOG.warn("deleting moved-away copies failed; retrying later", e);
                    }
                },
                deleteEvery,
                deleteEvery,
                TimeUnit.MILLISECONDS);
        long partitionEvery = conf.get(PartitionOptions.CHECK_INTERVAL).toMillis();
        // right away too: a server down over midnight creates the new day's partitions at start
        timer.scheduleWithFixedDelay(
                partitionMaintenance, 0, partitionEvery, TimeUnit.MILLISECONDS);
        if (lagHistory != null) {
            long lagEvery = conf.get(ServerOptions.LAG_HISTORY_INTERVAL).toMillis();
            // first sample right away, so a page opened just after start shows something; fixed
            // rate keeps samples evenly spaced, and ticks that bunch up behind a long maintenance
            // pass are absorbed by the sampler's own due check
            LagSampler sampler =
                    new LagSampler(
                            () -> {
                                // one status per tick feeds the lag plot and the planner's rates
                                var sample = status.overview().tables();
                                writeRates.record(clock.currentTimeMillis(), sample);
                                return sample;
                            },
                            lagHistory,
                            clock,
                            conf.get(ServerOptions.LAG_HISTORY_INTERVAL));
            timer.scheduleAtFixedRate(
                    () -> {
                        // the tiering status is the coordinator's
                        if (coordinatorRole.running().isPresent()) {
                            sampler.run();
                        }
                    },
                    0,
                    lagEvery,
                    TimeUnit.MILLISECONDS);
            // the saver decides on the clock; the thread only has to look often enough
            long saveEvery =
                    Math.min(
                            lagEvery, conf.get(ServerOptions.LAG_HISTORY_SAVE_INTERVAL).toMillis());
            timer.scheduleWithFixedDelay(lagSaver, saveEvery, saveEvery, TimeUnit.MILLISECONDS);
        }
        maintenance = timer;

        ServerContext context =
                new ServerContext(lakeConf, rpcTarget(), token, dataDir, clock, store);
        for (ServerExtension e : extensions) {
            try {
                e.start(context);
            } catch (Exception ex) {
                throw new StorageException(
                        "server extension " + e.getClass().getName() + " failed to start: " + ex,
                        ex);
            }
        }
        LOG.info(
                "Tributary server started: rpc={} http={} data={} lake: {}",
                rpcTarget(),
                httpAddress().map(a -> a.getHostString() + ":" + a.getPort()).orElse("off"),
                dataDir,
                LakeLocation.of(lakeConf).describe());
    }

    /**
     * The server's configuration with the lake warehouse defaulted to {@code <data.dir>/lake}, so
     * the server's lake and an embedded job's writers use the same warehouse.
     */
    private static Configuration lakeConfiguration(Configuration conf, Path dataDir) {
        Configuration lakeConf = new Configuration(conf.toMap());
        String format = conf.get(LakeStorageOptions.DATALAKE_FORMAT);
        String warehouseKey = "datalake." + format + ".warehouse";
        if (!lakeConf.toMap().containsKey(warehouseKey)) {
            lakeConf.setString(warehouseKey, dataDir.resolve("lake").toUri().toString());
        }
        return lakeConf;
    }

    /**
     * The lake as clients see it: format and the format's settings (warehouse resolved), so a union
     * reader opens the warehouse the server tiers into. They are served only to clients that pass
     * the token check, like every call.
     */
    private DescribeLakeResponse describeLake(Configuration lakeConf) {
        String format = lakeConf.get(LakeStorageOptions.DATALAKE_FORMAT);
        return DescribeLakeResponse.newBuilder()
                .setFormat(format)
                .putAllProperties(LakeStoragePlugins.formatConfiguration(lakeConf, format).toMap())
                .setAvailable(lake != null)
                .build();
    }

    /** The process's one lake, or null without a plugin for {@code datalake.format}. */
    private static LakeStorage openLake(Configuration lakeConf) {
        String format = lakeConf.get(LakeStorageOptions.DATALAKE_FORMAT);
        ClassLoader cl = TributaryServer.class.getClassLoader();
        if (!LakeStoragePlugins.available(cl).contains(format)) {
            LOG.warn(
                    "no '{}' lake plugin on the class path: tables cannot enable the lake", format);
            return null;
        }
        return LakeStoragePlugins.open(lakeConf);
    }

    /**
     * The coordinator stopped after an internal error: its state cannot be trusted, so the whole
     * server stops (a supervisor restarts it from the durable state) instead of serving writes that
     * would never be tiered.
     */
    private void onCoordinatorFault(Throwable e) {
        fatal = e;
        Thread stopper = new Thread(this::close, "tributary-fatal-stop");
        stopper.setDaemon(true);
        stopper.start();
    }

    /**
     * The server's configuration with the lake warehouse resolved: what a tiering job of this
     * server (embedded or not) needs for its lake writers.
     */
    public Configuration lakeConfiguration() {
        return new Configuration(lakeConf.toMap());
    }

    /** The fault that stopped the server, if one did. */
    public Optional<Throwable> fatalError() {
        return Optional.ofNullable(fatal);
    }

    /** {@code host:port} of the gRPC endpoint (the bound port when 0 was configured). */
    public String rpcTarget() {
        return conf.get(ServerOptions.BIND_HOST) + ":" + grpc.getPort();
    }

    /**
     * {@code host:port} of the gRPC endpoint as registered for peers and clients: {@code
     * server.advertised-host}, or the bind host with a wildcard replaced by this machine's address.
     */
    public String advertisedRpcAddress() {
        return advertisedRpcAddress;
    }

    public int rpcPort() {
        return grpc.getPort();
    }

    /** The HTTP endpoint's bound address; empty when HTTP is disabled. */
    public Optional<InetSocketAddress> httpAddress() {
        return http == null ? Optional.empty() : Optional.of(http.address());
    }

    /** This process's random instance id, which its heartbeats carry (T49). */
    public String instanceId() {
        return instanceId;
    }

    public Path dataDir() {
        return dataDir;
    }

    /** Whether this server is the cluster's coordinator now (a lone server always is). */
    public boolean coordinates() {
        return coordinatorRole != null && coordinatorRole.running().isPresent();
    }

    /**
     * The coordinator this server runs.
     *
     * @throws dev.tributary.common.exception.NotCoordinatorException when it does not coordinate
     */
    public Coordinator coordinator() {
        return coordinatorRole.current();
    }

    public BucketStore store() {
        return store;
    }

    /**
     * Object-store requests and bytes per lake table: each round's and maintenance pass's (T47).
     * The cumulative counts are {@link ObjectStoreRequests#global()}'s.
     */
    public ObjectStoreCosts objectStoreCosts() {
        return objectStoreCosts;
    }

    /**
     * The partition upkeep (T31, T33), which the server runs every {@code
     * server.auto-partition.check-interval}; tests with a manual clock run a pass with {@link
     * PartitionMaintenance#runOnce()}.
     */
    public PartitionMaintenance partitionMaintenance() {
        return partitionMaintenance;
    }

    /** Blocks until {@link #close()} has finished (e.g. from the SIGTERM hook). */
    public void awaitTermination() throws InterruptedException {
        terminated.await();
    }

    /**
     * Graceful shutdown: stop the extensions, stop accepting calls, let in-flight calls (appends
     * waiting for fsync) finish up to {@code server.shutdown.timeout}, stop maintenance, then close
     * the coordinator, its metadata and the store (fsync, RocksDB closed). Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            // extensions (the embedded tiering job) are clients of this server: stop them while
            // the server still answers, so they end cleanly instead of retrying a closed port
            for (ServerExtension e : extensions) {
                quietly(e);
            }
            if (heartbeater != null
                    && replicas != null
                    && replicas.holdsReplicas()
                    && conf.get(ReplicaOptions.CONTROLLED_SHUTDOWN)) {
                // while this server still answers: clients and followers move to the new leaders
                heartbeater.stopAndRetire(conf.get(ServerOptions.SHUTDOWN_TIMEOUT));
            }
            quietly(heartbeater);
            quietly(inSyncChanges);
            // a stopping server's fetchers stop first: fetching on while calls drain would tell
            // the leaders it is in sync, and they would ask to add it back to in-sync sets
            quietly(replicas);
            if (grpc != null) {
                grpc.shutdown();
                try {
                    long timeout = conf.get(ServerOptions.SHUTDOWN_TIMEOUT).toMillis();
                    if (!grpc.awaitTermination(timeout, TimeUnit.MILLISECONDS)) {
                        grpc.shutdownNow();
                    }
                } catch (InterruptedException e) {
                    grpc.shutdownNow();
                    Thread.currentThread().interrupt();
                }
            }
            quietly(http);
            quietly(clusterBucketEnds);
            if (maintenance != null) {
                maintenance.shutdown();
                try {
                    maintenance.awaitTermination(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (lagSaver != null) {
                // after the sampler stopped: the file holds the last sample taken
                lagSaver.save();
            }
            Optional<Coordinator> running =
                    coordinatorRole == null ? Optional.empty() : coordinatorRole.gaveUp();
            if (running.isPresent()) {
                // lake commits still running finish and are recorded before the metadata closes
                try {
                    running.get().close(conf.get(ServerOptions.SHUTDOWN_TIMEOUT));
                } catch (RuntimeException e) {
                    LOG.warn("error while closing the coordinator", e);
                }
            }
            quietly(metadata);
            quietly(store);
            quietly(lake);
            if (metrics != null) {
                metrics.close();
            }
            // last: the directory is free only once nothing writes to it any more
            quietly(dataDirLock);
            LOG.info("Tributary server stopped");
        } finally {
            terminated.countDown();
        }
    }

    private static void quietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            LOG.warn("error while closing {}", c.getClass().getSimpleName(), e);
        }
    }
}
