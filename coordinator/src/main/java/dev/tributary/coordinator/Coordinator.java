package dev.tributary.coordinator;

import dev.tributary.common.concurrent.DaemonThreads;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.TableChange;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.runtime.CoordinatorEventLoop;
import dev.tributary.coordinator.spi.BucketStateSource;
import dev.tributary.coordinator.spi.LakeCommitStep;
import dev.tributary.coordinator.status.CoordinatorStatus;
import dev.tributary.coordinator.status.TableTieringStatus;
import dev.tributary.coordinator.store.MetadataStore;
import dev.tributary.coordinator.tiering.CommitRequest;
import dev.tributary.coordinator.tiering.HeartbeatRequest;
import dev.tributary.coordinator.tiering.HeartbeatResponse;
import dev.tributary.coordinator.tiering.JobRegistration;
import dev.tributary.coordinator.tiering.TieringConfig;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The running coordinator: the thread-safe facade the server's gRPC services call. Every call is
 * executed on one event-loop thread ({@link CoordinatorEventLoop}) and answered through a future;
 * lake commits run on a small commit pool ({@code tiering.commit.threads}). Failures are the typed
 * exceptions of {@code dev.tributary.common.exception}, delivered through the future.
 *
 * <p>Start with {@link #start}; the caller owns the {@link MetadataStore} and closes it after
 * {@link #close()}.
 */
public final class Coordinator implements AutoCloseable {
    private final CoordinatorEventLoop loop;
    private final ExecutorService commitPool;
    private final CoordinatorCore core;

    private Coordinator(
            CoordinatorEventLoop loop, ExecutorService commitPool, CoordinatorCore core) {
        this.loop = loop;
        this.commitPool = commitPool;
        this.core = core;
    }

    /**
     * Loads the metadata, rebuilds the tiering state (T12, T17) and starts the event loop.
     *
     * @param conf coordinator options ({@link CoordinatorOptions})
     * @param clock the clock (the system clock in production)
     * @param store durable metadata, e.g. {@code
     *     FileMetadataStore.open(dataDir.resolve("coordinator"))}
     * @param buckets the store's bucket end offsets and KV snapshots
     * @param lake the lake commit step, or {@code null} if no lake is configured
     */
    public static Coordinator start(
            Configuration conf,
            Clock clock,
            MetadataStore store,
            BucketStateSource buckets,
            LakeCommitStep lake) {
        conf.validate(CoordinatorOptions.all());
        TieringConfig config = TieringConfig.from(conf);
        int threads = conf.get(CoordinatorOptions.COMMIT_THREADS);
        ExecutorService pool =
                new ThreadPoolExecutor(
                        threads,
                        threads,
                        60,
                        TimeUnit.SECONDS,
                        new LinkedBlockingQueue<>(),
                        DaemonThreads.named("coordinator-commit"));
        CoordinatorEventLoop loop = new CoordinatorEventLoop(clock, "coordinator-event-loop");
        loop.start();
        try {
            CoordinatorCore core =
                    loop.submit(
                                    () ->
                                            new CoordinatorCore(
                                                    config, clock, loop, loop, pool, store, buckets,
                                                    lake))
                            .join();
            return new Coordinator(loop, pool, core);
        } catch (CompletionException e) {
            loop.close();
            pool.shutdownNow();
            throw e.getCause() instanceof TributaryException te ? te : e;
        }
    }

    /** This start's incarnation number (epochs of this run are at least incarnation * 1e9). */
    public long incarnation() {
        return core.incarnation();
    }

    // ------------------------------------------------------------------ admin

    public CompletableFuture<DatabaseInfo> createDatabase(
            String name, String comment, boolean ignoreIfExists) {
        return loop.submit(() -> core.createDatabase(name, comment, ignoreIfExists));
    }

    /** Drops a database; a non-empty one only with {@code cascade}. */
    public CompletableFuture<Void> dropDatabase(
            String name, boolean ignoreIfNotExists, boolean cascade) {
        return loop.submit(
                () -> {
                    core.dropDatabase(name, ignoreIfNotExists, cascade);
                    return null;
                });
    }

    public CompletableFuture<List<DatabaseInfo>> listDatabases() {
        return loop.submit(() -> core.registry().listDatabases());
    }

    /** Creates a table (id assigned here); fails with AlreadyExists, NotFound or InvalidInput. */
    public CompletableFuture<TableInfo> createTable(
            TablePath path, TableDescriptor descriptor, boolean ignoreIfExists) {
        return loop.submit(() -> core.createTable(path, descriptor, ignoreIfExists));
    }

    /** Alters properties and/or appends nullable columns atomically; returns the new table. */
    public CompletableFuture<TableInfo> alterTable(TablePath path, List<TableChange> changes) {
        return loop.submit(() -> core.alterTable(path, List.copyOf(changes)));
    }

    /** Drops a table; the result is the dropped table, empty if absent and ignored. */
    public CompletableFuture<Optional<TableInfo>> dropTable(
            TablePath path, boolean ignoreIfNotExists) {
        return loop.submit(() -> core.dropTable(path, ignoreIfNotExists));
    }

    public CompletableFuture<List<TablePath>> listTables(String database) {
        return loop.submit(() -> core.registry().listTables(database));
    }

    /** The table at {@code path}; fails with NotFound. */
    public CompletableFuture<TableInfo> describeTable(TablePath path) {
        return loop.submit(() -> core.registry().describe(path));
    }

    public CompletableFuture<Optional<TableInfo>> tableById(long tableId) {
        return loop.submit(() -> core.registry().byId(tableId));
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
        return loop.submit(() -> core.schema(tableId, schemaId));
    }

    // ------------------------------------------------------------------ tiering

    public CompletableFuture<JobRegistration> registerJob(String jobId, String group) {
        return loop.submit(() -> core.tiering().registerJob(jobId, group));
    }

    /**
     * A job's heartbeat; with {@code requestTable} and {@code waitForTableMillis > 0} the answer is
     * held until a table of the job's group becomes pending (push, T3) or the wait ends.
     */
    public CompletableFuture<HeartbeatResponse> heartbeat(HeartbeatRequest request) {
        return loop.submit(() -> core.tiering().heartbeatAsync(request)).thenCompose(f -> f);
    }

    /** A fenced commit; see {@code TieringManager#commit}. */
    public CompletableFuture<Long> commit(CommitRequest request) {
        return loop.submit(() -> core.tiering().commit(request)).thenCompose(f -> f);
    }

    public CompletableFuture<CoordinatorStatus> status() {
        return loop.submit(() -> core.tiering().status());
    }

    public CompletableFuture<Optional<TableTieringStatus>> tableStatus(long tableId) {
        return loop.submit(() -> core.tiering().tableStatus(tableId));
    }

    /** Stops the loop and the commit pool (commits in flight are abandoned; see T21). */
    @Override
    public void close() {
        loop.close();
        commitPool.shutdownNow();
    }
}
