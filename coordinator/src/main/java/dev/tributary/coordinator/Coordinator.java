package dev.tributary.coordinator;

import dev.tributary.common.concurrent.DaemonThreads;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.cluster.AssignedBucketStates;
import dev.tributary.coordinator.cluster.BucketReport;
import dev.tributary.coordinator.cluster.CoordinatorLiveness;
import dev.tributary.coordinator.cluster.HeartbeatAnswer;
import dev.tributary.coordinator.cluster.HeartbeatOutcome;
import dev.tributary.coordinator.cluster.LeaderElections;
import dev.tributary.coordinator.cluster.PreferredLeaders;
import dev.tributary.coordinator.cluster.ReplicaMover;
import dev.tributary.coordinator.cluster.ReplicaMoves;
import dev.tributary.coordinator.cluster.ReportedBucketStates;
import dev.tributary.coordinator.cluster.ServerLivenessOptions;
import dev.tributary.coordinator.cluster.ServerLivenessView;
import dev.tributary.coordinator.cluster.ServerProbe;
import dev.tributary.coordinator.cluster.ServerRemoval;
import dev.tributary.coordinator.maintenance.MaintenanceConfig;
import dev.tributary.coordinator.maintenance.MaintenanceOptions;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.BucketReplicas;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.PartitionRegistry;
import dev.tributary.coordinator.metadata.ReplicationHealth;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.coordinator.metadata.TableChange;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.metadata.TableRegistry;
import dev.tributary.coordinator.runtime.CoordinatorEventLoop;
import dev.tributary.coordinator.runtime.LakeIoPool;
import dev.tributary.coordinator.spi.BucketStateSource;
import dev.tributary.coordinator.spi.LakeCommitStep;
import dev.tributary.coordinator.spi.LakeMaintenanceStep;
import dev.tributary.coordinator.status.CoordinatorStatus;
import dev.tributary.coordinator.status.TableTieringStatus;
import dev.tributary.coordinator.store.MetadataStore;
import dev.tributary.coordinator.tiering.TieringConfig;
import dev.tributary.tiering.api.HeartbeatRequest;
import dev.tributary.tiering.api.HeartbeatResult;
import dev.tributary.tiering.api.JobSettings;
import dev.tributary.tiering.api.MaintenanceCommit;
import dev.tributary.tiering.api.MaintenanceOutcome;
import dev.tributary.tiering.api.RoundCommit;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running coordinator: the thread-safe facade the server's gRPC services call. Every call is
 * executed on one event-loop thread ({@link CoordinatorEventLoop}) and answered through a future
 * that completes on a reply thread, never on the loop (callers' continuations, such as encoding a
 * gRPC reply, must not stall the coordinator). Lake I/O runs on a small pool ({@code
 * tiering.commit.threads}). Failures are the typed exceptions of {@code
 * dev.tributary.common.exception}, delivered through the future.
 *
 * <p>A fault inside the logic stops the coordinator (see {@link CoordinatorEventLoop}): every
 * pending and later call fails with a {@link RetriableException}, and the fatal-error handler given
 * to {@link #start} is told once. {@link #close()} fails pending calls the same way.
 *
 * <p>Start with {@link #start}; the caller owns the {@link MetadataStore} and closes it after
 * {@link #close()}.
 */
public final class Coordinator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Coordinator.class);

    /**
     * {@code ownServerId} for a coordinator that reads every bucket from {@code buckets}, whoever
     * it is assigned to (embedded uses without cluster membership).
     */
    public static final int ALL_BUCKETS_LOCAL = -1;

    private final CoordinatorEventLoop loop;
    private final LakeIoPool lakeIo;
    private final LakeIoPool maintenanceIo;
    private final ExecutorService replies;
    private final Set<CompletableFuture<?>> pending = ConcurrentHashMap.newKeySet();
    private volatile CoordinatorCore core;

    /**
     * Probes late servers' addresses (T51); null when {@code cluster.server.liveness-probe} is off.
     */
    private volatile ServerProbe probe;

    // touched on the loop only
    private CoordinatorLiveness liveness;
    private LeaderElections elections;
    private ReplicaMover mover;
    private ServerRemoval removal;

    private Coordinator(
            Clock clock, int lakeThreads, int maintenanceThreads, Consumer<Throwable> onFatal) {
        this.lakeIo = new LakeIoPool(lakeThreads, "coordinator-lake-io");
        this.maintenanceIo = new LakeIoPool(maintenanceThreads, "coordinator-maintenance-io");
        this.replies = Executors.newCachedThreadPool(DaemonThreads.named("coordinator-reply"));
        this.loop =
                new CoordinatorEventLoop(
                        clock,
                        "coordinator-event-loop",
                        e -> {
                            // the handler first: whoever sees a call fail finds the fault reported
                            onFatal.accept(e);
                            failPending(e);
                        });
    }

    /**
     * Loads the metadata, rebuilds the tiering state (T12, T17) and starts the event loop, with a
     * fatal-error handler that only logs.
     */
    public static Coordinator start(
            Configuration conf,
            Clock clock,
            MetadataStore store,
            BucketStateSource buckets,
            LakeCommitStep lake) {
        return start(conf, clock, store, buckets, lake, e -> {});
    }

    /**
     * Loads the metadata, rebuilds the tiering state (T12, T17) and starts the event loop, without
     * lake maintenance.
     */
    public static Coordinator start(
            Configuration conf,
            Clock clock,
            MetadataStore store,
            BucketStateSource buckets,
            LakeCommitStep lake,
            Consumer<Throwable> onFatal) {
        return start(conf, clock, store, buckets, lake, null, onFatal);
    }

    /**
     * Loads the metadata, rebuilds the tiering state (T12, T17), starts lake maintenance (T38, T39)
     * and the event loop.
     *
     * @param conf coordinator options ({@link CoordinatorOptions})
     * @param clock the clock (the system clock in production)
     * @param store durable metadata, e.g. {@code
     *     FileMetadataStore.open(dataDir.resolve("coordinator"))}
     * @param buckets the store's bucket end offsets and KV snapshots
     * @param lake the lake commit step, or {@code null} if no lake is configured
     * @param maintenance the lake's maintenance step, or {@code null} for no maintenance
     * @param onFatal told once, on the loop thread, when a fault stopped the coordinator (the
     *     server stops itself, so a supervisor restarts it from its durable state)
     */
    public static Coordinator start(
            Configuration conf,
            Clock clock,
            MetadataStore store,
            BucketStateSource buckets,
            LakeCommitStep lake,
            LakeMaintenanceStep maintenance,
            Consumer<Throwable> onFatal) {
        return start(conf, clock, store, buckets, ALL_BUCKETS_LOCAL, lake, maintenance, onFatal);
    }

    /**
     * Like {@link #start(Configuration, Clock, MetadataStore, BucketStateSource, LakeCommitStep,
     * LakeMaintenanceStep, Consumer)} for the coordinator of server {@code ownServerId} (T49):
     * buckets assigned to that server are read from {@code buckets}, buckets assigned to another
     * server from that server's heartbeats ({@link AssignedBucketStates}).
     *
     * @param ownServerId the registered id of the server this coordinator runs in, or {@link
     *     #ALL_BUCKETS_LOCAL}
     */
    public static Coordinator start(
            Configuration conf,
            Clock clock,
            MetadataStore store,
            BucketStateSource local,
            int ownServerId,
            LakeCommitStep lake,
            LakeMaintenanceStep maintenance,
            Consumer<Throwable> onFatal) {
        AssignedBucketStates assigned =
                ownServerId == ALL_BUCKETS_LOCAL
                        ? null
                        : new AssignedBucketStates(local, ownServerId);
        BucketStateSource buckets = assigned == null ? local : assigned;
        conf.validate(CoordinatorOptions.all());
        ServerLivenessOptions.Settings liveness = ServerLivenessOptions.from(conf);
        TieringConfig config = TieringConfig.from(conf);
        MaintenanceConfig maintenanceConfig = MaintenanceConfig.from(conf);
        Coordinator c =
                new Coordinator(
                        clock,
                        conf.get(CoordinatorOptions.COMMIT_THREADS),
                        conf.get(MaintenanceOptions.THREADS),
                        onFatal);
        c.probe = liveness.probe() ? new ServerProbe(liveness.probeTimeout()) : null;
        c.loop.start();
        try {
            c.core =
                    c.loop.submit(
                                    () ->
                                            new CoordinatorCore(
                                                    config,
                                                    clock,
                                                    c.loop,
                                                    c.loop,
                                                    c.lakeIo,
                                                    store,
                                                    buckets,
                                                    lake,
                                                    maintenanceConfig,
                                                    c.maintenanceIo,
                                                    maintenance))
                            .join();
            c.loop.submit(
                            () -> {
                                c.liveness =
                                        new CoordinatorLiveness(
                                                store,
                                                clock,
                                                c.loop,
                                                c.loop,
                                                liveness.interval(),
                                                liveness.timeout(),
                                                c.probe);
                                c.liveness.start();
                                c.core.assignments().skipServersWhen(c.liveness::expired);
                                CoordinatorLiveness live = c.liveness;
                                c.elections =
                                        new LeaderElections(
                                                c.core.assignments(), id -> !live.expired(id));
                                live.useElections(c.elections);
                                new PreferredLeaders(
                                                c.elections,
                                                id -> !live.expired(id) && !draining(store, id),
                                                c.loop,
                                                conf)
                                        .start();
                                c.mover =
                                        new ReplicaMover(
                                                c.core.assignments(),
                                                store,
                                                id -> !live.expired(id));
                                c.removal =
                                        new ServerRemoval(
                                                c.core.assignments(), store, live::expired);
                                // moves a predecessor left with every new replica in sync
                                c.mover.finishMoves();
                                if (assigned != null) {
                                    assigned.use(c.core.assignments(), c.liveness.reported());
                                }
                                return null;
                            })
                    .join();
            return c;
        } catch (CompletionException e) {
            c.close();
            throw e.getCause() instanceof TributaryException te ? te : e;
        }
    }

    private static boolean draining(MetadataStore store, int serverId) {
        ServerRegistration r = store.servers().get(serverId);
        return r != null && r.draining();
    }

    /** Runs {@code call} on the loop; the answer arrives on a reply thread. */
    private <T> CompletableFuture<T> call(Callable<T> call) {
        return offLoop(loop.submit(call));
    }

    /** Like {@link #call} for logic that answers later (long polls, lake commits). */
    private <T> CompletableFuture<T> callAsync(Callable<CompletableFuture<T>> call) {
        return offLoop(loop.submit(call).thenCompose(f -> f));
    }

    private <T> CompletableFuture<T> offLoop(CompletableFuture<T> onLoop) {
        CompletableFuture<T> answer = new CompletableFuture<>();
        pending.add(answer);
        answer.whenComplete((v, e) -> pending.remove(answer));
        onLoop.whenComplete(
                (v, e) -> {
                    try {
                        replies.execute(() -> complete(answer, v, e));
                    } catch (RejectedExecutionException closed) {
                        complete(answer, v, e);
                    }
                });
        return answer;
    }

    private static <T> void complete(CompletableFuture<T> answer, T value, Throwable error) {
        if (error == null) {
            answer.complete(value);
            return;
        }
        Throwable cause = error;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        answer.completeExceptionally(cause);
    }

    private void failPending(Throwable why) {
        RetriableException e =
                why == null
                        ? new RetriableException("the coordinator is shutting down")
                        : new RetriableException(
                                "the coordinator stopped after an internal error ("
                                        + why
                                        + "); it resumes when the server restarts",
                                why);
        for (CompletableFuture<?> f : List.copyOf(pending)) {
            f.completeExceptionally(e);
        }
    }

    /** The fault that stopped the coordinator, if one did. */
    public Optional<Throwable> fatalError() {
        return Optional.ofNullable(loop.fatalError());
    }

    /** This start's incarnation number (epochs of this run are at least incarnation * 1e9). */
    public long incarnation() {
        return core.incarnation();
    }

    // ------------------------------------------------------------------ server liveness

    /**
     * A registered server's heartbeat (T49): {@link HeartbeatOutcome#ACCEPTED}, {@link
     * HeartbeatOutcome#FENCED} for an instance a restart replaced, or {@link
     * HeartbeatOutcome#UNKNOWN_SERVER} for an id not registered; an accepted heartbeat's bucket
     * report is applied ({@link ReportedBucketStates#report}: a refused report fails the call with
     * an {@code InvalidInputException}).
     */
    public CompletableFuture<HeartbeatAnswer> serverHeartbeat(
            int serverId, String instanceId, BucketReport report) {
        return call(() -> liveness.heartbeat(serverId, instanceId, report));
    }

    /**
     * The bucket states server {@code serverId} reported in its heartbeats, with whether they are
     * stale (the server expired since), read on the loop.
     */
    public CompletableFuture<List<ReportedBucketStates.Reported>> reportedBucketStates(
            int serverId) {
        return call(
                () -> {
                    ReportedBucketStates r = liveness.reported();
                    boolean stale = r.stale(serverId);
                    return r.states(serverId).stream()
                            .map(b -> new ReportedBucketStates.Reported(b, stale))
                            .toList();
                });
    }

    /**
     * Writes the in-sync set a bucket's leader asks for (T50), on the loop.
     *
     * @throws dev.tributary.common.exception.FencedException (in the future) if {@code serverId}
     *     does not lead the bucket in {@code leaderEpoch}
     */
    public CompletableFuture<BucketReplicas> alterInSyncReplicas(
            int serverId, TableBucket bucket, int leaderEpoch, List<Integer> isr) {
        return call(() -> elections.alterInSyncReplicas(serverId, bucket, leaderEpoch, isr));
    }

    /**
     * Marks the servers in {@code drain} draining and those in {@code undrain} not, moves replicas
     * off every draining server and evens out the others' over the alive servers (issue 23), on the
     * loop: each move starts now and ends once its new replicas are in sync.
     *
     * @param dryRun plan only, mark nothing
     * @return the moves planned (and started)
     * @throws dev.tributary.common.exception.InvalidInputException (in the future) if a server
     *     named is unknown or a bucket has nowhere to go
     */
    public CompletableFuture<List<ReplicaMoves.Move>> moveReplicas(
            Set<Integer> drain, Set<Integer> undrain, boolean dryRun) {
        return call(() -> mover.rebalance(drain, undrain, dryRun));
    }

    /**
     * Cancels the replica moves under way (issue 23), on the loop: each bucket goes back to the
     * replicas it held before its move; drain marks stay ({@link ReplicaMover#cancelMoves}).
     *
     * @param dryRun list the moves only, cancel nothing
     * @return one move per bucket, from its move's target back to its replicas before
     */
    public CompletableFuture<List<ReplicaMoves.Move>> cancelReplicaMoves(boolean dryRun) {
        return call(() -> mover.cancelMoves(dryRun));
    }

    /**
     * Removes server {@code serverId}'s registration once it is stopped and holds no replica (issue
     * 23), on the loop; with {@code dryRun} only checks that it may be removed.
     *
     * @throws dev.tributary.common.exception.InvalidInputException (in the future) naming what to
     *     do first
     */
    public CompletableFuture<Void> removeServer(int serverId, boolean dryRun) {
        return call(
                () -> {
                    removal.remove(serverId, dryRun);
                    return null;
                });
    }

    /**
     * Server {@code serverId} came back without its data (T53; its storage id changed), on the
     * loop: it leaves every in-sync set and the buckets it led get new leaders, before its new
     * storage id is registered.
     *
     * @return how many buckets' leaders moved (or were lost)
     */
    public CompletableFuture<Integer> serverLostData(int serverId) {
        return call(() -> elections.onDataLost(serverId));
    }

    /**
     * A server instance about to stop (a controlled shutdown, T51), on the loop: expired now, so
     * the buckets it leads get in-sync followers as leaders and it leaves every in-sync set.
     */
    public CompletableFuture<CoordinatorLiveness.StopAnswer> serverStopping(
            int serverId, String instanceId) {
        return call(() -> liveness.retire(serverId, instanceId));
    }

    /** Every registered server's liveness as this coordinator sees it, in id order. */
    public CompletableFuture<List<ServerLivenessView>> serverLiveness() {
        return call(() -> liveness.views());
    }

    /**
     * The liveness as of the last heartbeat or expiry check (at most one heartbeat interval old),
     * without a trip through the loop: for status pages, which must answer while the loop is busy.
     */
    public List<ServerLivenessView> publishedServerLiveness() {
        return liveness.published();
    }

    /**
     * How many buckets each server reported in its heartbeats, as of the last heartbeat or expiry
     * check, without a trip through the loop (for status pages).
     */
    public Map<Integer, Integer> publishedReportedBuckets() {
        return liveness.publishedReportedBuckets();
    }

    // ------------------------------------------------------------------ admin

    public CompletableFuture<DatabaseInfo> createDatabase(
            String name, String comment, boolean ignoreIfExists) {
        return call(() -> core.createDatabase(name, comment, ignoreIfExists));
    }

    /** Drops a database; a non-empty one only with {@code cascade}. */
    public CompletableFuture<Void> dropDatabase(
            String name, boolean ignoreIfNotExists, boolean cascade) {
        return call(
                () -> {
                    core.dropDatabase(name, ignoreIfNotExists, cascade);
                    return null;
                });
    }

    public CompletableFuture<List<DatabaseInfo>> listDatabases() {
        return call(() -> core.registry().listDatabases());
    }

    /** Creates a table (id assigned here); fails with AlreadyExists, NotFound or InvalidInput. */
    public CompletableFuture<TableInfo> createTable(
            TablePath path, TableDescriptor descriptor, boolean ignoreIfExists) {
        return call(() -> core.createTable(path, descriptor, ignoreIfExists));
    }

    /**
     * {@link #createTable}, also saying whether this call created the table (false: IF NOT EXISTS
     * found it), so the caller sets up what a new table needs exactly once.
     */
    public CompletableFuture<TableRegistry.Created> createTableReporting(
            TablePath path, TableDescriptor descriptor, boolean ignoreIfExists) {
        return call(() -> core.createTableReporting(path, descriptor, ignoreIfExists));
    }

    /** Alters properties and/or appends nullable columns atomically; returns the new table. */
    public CompletableFuture<TableInfo> alterTable(TablePath path, List<TableChange> changes) {
        return call(() -> core.alterTable(path, List.copyOf(changes)));
    }

    /** Drops a table; the result is the dropped table, empty if absent and ignored. */
    public CompletableFuture<Optional<TableInfo>> dropTable(
            TablePath path, boolean ignoreIfNotExists) {
        return call(() -> core.dropTable(path, ignoreIfNotExists));
    }

    public CompletableFuture<List<TablePath>> listTables(String database) {
        return call(() -> core.registry().listTables(database));
    }

    /** The table at {@code path}; fails with NotFound. */
    public CompletableFuture<TableInfo> describeTable(TablePath path) {
        return call(() -> core.registry().describe(path));
    }

    public CompletableFuture<Optional<TableInfo>> tableById(long tableId) {
        return call(() -> core.registry().byId(tableId));
    }

    /**
     * The table's current metadata without a trip through the event loop (for the write and read
     * paths): a lock-free read of the latest committed DDL state.
     */
    public Optional<TableInfo> cachedTable(TablePath path) {
        return core.registry().byPath(path);
    }

    /** Like {@link #cachedTable(TablePath)}, by table id. */
    public Optional<TableInfo> cachedTable(long tableId) {
        return core.registry().byId(tableId);
    }

    /** A schema version (for reading batches written under an older schema id). */
    public CompletableFuture<Schema> schema(long tableId, int schemaId) {
        return call(() -> core.schema(tableId, schemaId));
    }

    // ------------------------------------------------------------------ partitions (T30, T33)

    /**
     * Adds a partition to a partitioned table; the result says whether this call created it. Fails
     * with NotFound (table), InvalidInput (values, or a partition still being dropped) or
     * AlreadyExists.
     */
    public CompletableFuture<PartitionRegistry.Created> createPartition(
            TablePath path, PartitionSpec spec, boolean ignoreIfExists) {
        return call(() -> core.createPartition(path, spec, ignoreIfExists));
    }

    /**
     * Marks a partition DROPPING; the server removes it with {@link #removePartition} once that
     * allows it. Empty if it did not exist and {@code ignoreIfNotExists}.
     */
    public CompletableFuture<Optional<PartitionInfo>> dropPartition(
            TablePath path, PartitionSpec spec, boolean ignoreIfNotExists, boolean dropLake) {
        return call(() -> core.dropPartition(path, spec, ignoreIfNotExists, dropLake));
    }

    /**
     * Removes a DROPPING partition (and its tiered offsets) durably if it is tiered to {@code
     * endOffsets} per bucket, or its table is not tiered (T33); else says why not yet. With {@code
     * checkOnly} nothing is removed: the answer says whether it could be.
     */
    public CompletableFuture<Optional<String>> removePartition(
            long tableId, long partitionId, Map<Integer, Long> endOffsets, boolean checkOnly) {
        Map<Integer, Long> copy = Map.copyOf(endOffsets);
        return call(() -> core.removePartition(tableId, partitionId, copy, checkOnly));
    }

    /** A partitioned table's partitions by name; fails with NotFound for an unknown table. */
    public CompletableFuture<List<PartitionInfo>> listPartitions(TablePath path) {
        return call(() -> core.listPartitions(path));
    }

    /** The partitions of a table without a trip through the loop (for the data path). */
    public java.util.Collection<PartitionInfo> cachedPartitions(long tableId) {
        return core.partitions().partitions(tableId);
    }

    /** A partition by name without a trip through the loop (for the write path). */
    public Optional<PartitionInfo> cachedPartition(long tableId, String name) {
        return core.partitions().byName(tableId, name);
    }

    /** A partition by id without a trip through the loop (for the read path). */
    public Optional<PartitionInfo> cachedPartition(long tableId, long partitionId) {
        return core.partitions().byId(tableId, partitionId);
    }

    // ------------------------------------------------------------------ bucket assignment (T49)

    /**
     * Which server holds the buckets of a table ({@code partitionId} {@link
     * dev.tributary.common.id.TableBucket#NO_PARTITION}) or of one partition, without a trip
     * through the loop; empty until a server registered.
     */
    public Optional<BucketAssignment> bucketAssignment(long tableId, long partitionId) {
        return core.assignments().of(tableId, partitionId);
    }

    /** The number of buckets assigned to each server, without a trip through the loop. */
    public Map<Integer, Integer> bucketsPerServer() {
        return core.assignments().load();
    }

    /**
     * Under-replicated and leaderless buckets over every assignment, without a trip through the
     * loop.
     */
    public ReplicationHealth replicationHealth() {
        return ReplicationHealth.of(core.assignments().all());
    }

    /** Every bucket assignment, without a trip through the loop. */
    public List<BucketAssignment> bucketAssignments() {
        return core.assignments().all();
    }

    /**
     * Assigns the buckets of every table and partition that has none yet; the server calls it once
     * it registered (a table may have been created before any server had).
     *
     * @return how many assignments were written
     */
    public CompletableFuture<Integer> assignMissingBuckets() {
        return call(core::assignMissingBuckets);
    }

    // ------------------------------------------------------------------ tiering

    public CompletableFuture<JobSettings> registerJob(String jobId, String group) {
        return registerJob(jobId, group, 0);
    }

    /** Registers a job that runs {@code parallelism} readers (0: not known). */
    public CompletableFuture<JobSettings> registerJob(String jobId, String group, int parallelism) {
        return call(() -> core.tiering().registerJob(jobId, group, parallelism));
    }

    /**
     * A job's heartbeat; with {@code requestTable} and {@code waitForTableMillis > 0} the answer is
     * held until a table of the job's group becomes pending (push, T3) or the wait ends.
     */
    public CompletableFuture<HeartbeatResult> heartbeat(HeartbeatRequest request) {
        return callAsync(() -> core.tiering().heartbeatAsync(request));
    }

    /** A fenced commit; see {@code TieringManager#commit}. */
    public CompletableFuture<Long> commit(RoundCommit request) {
        return callAsync(() -> core.tiering().commit(request));
    }

    /**
     * Commits a job's compaction grant (T38); see {@code MaintenanceManager#commit}. Without
     * maintenance every grant is unknown, so the answer is {@code FENCED}.
     */
    public CompletableFuture<MaintenanceOutcome> commitMaintenance(MaintenanceCommit request) {
        return callAsync(
                () ->
                        core.maintenance()
                                .map(m -> m.commit(request))
                                .orElseGet(
                                        () ->
                                                CompletableFuture.completedFuture(
                                                        MaintenanceOutcome.of(
                                                                MaintenanceOutcome.Kind.FENCED,
                                                                "this coordinator runs no lake"
                                                                        + " maintenance"))));
    }

    public CompletableFuture<CoordinatorStatus> status() {
        return call(() -> core.tiering().status());
    }

    public CompletableFuture<Optional<TableTieringStatus>> tableStatus(long tableId) {
        return call(() -> core.tiering().tableStatus(tableId));
    }

    /**
     * {@link #close(Duration)} waiting at most {@code tiering.commit.timeout} for lake commits in
     * flight.
     */
    @Override
    public void close() {
        CoordinatorCore c = core;
        close(c == null ? Duration.ZERO : c.tiering().config().commitTimeout());
    }

    /**
     * Graceful shutdown: answers parked table requests, starts no new lake commit, and waits up to
     * {@code maxWait} for the lake commits already running, each of which records and answers its
     * outcome as usual (so none lands after close unrecorded). Then stops the loop and the lake I/O
     * pool and fails every call still waiting. A commit still running after {@code maxWait} is
     * abandoned and named in the log; whether it landed is read from the lake at the next start
     * (T21).
     */
    public void close(Duration maxWait) {
        CoordinatorCore c = core;
        if (c != null && loop.fatalError() == null) {
            try {
                CompletableFuture<Void> drained =
                        loop.submit(() -> c.tiering().beginShutdown()).get(5, TimeUnit.SECONDS);
                drained.get(Math.max(0, maxWait.toMillis()), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                Set<Long> running = Set.of();
                try {
                    running =
                            loop.submit(() -> c.tiering().commitsInFlight())
                                    .get(5, TimeUnit.SECONDS);
                } catch (Exception ignored) {
                    // the loop is stuck: the log line below just names no table
                }
                LOG.warn(
                        "lake commits of tables {} still run after waiting {}; abandoning them,"
                                + " their outcome is read from the lake at the next start",
                        running,
                        maxWait);
            } catch (Exception e) {
                LOG.debug("could not wait for lake commits before closing", e);
            }
        }
        loop.close();
        if (probe != null) {
            probe.close();
        }
        lakeIo.close();
        maintenanceIo.close();
        // answers the loop already gave go out before what still waits is failed
        replies.shutdown();
        try {
            replies.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        failPending(null);
    }
}
