package dev.tributary.server.replica;

import dev.tributary.common.id.TableBucket;
import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.BucketReplicas;
import dev.tributary.storage.kv.KvBucket;
import dev.tributary.storage.log.LogBucket;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives each replicated bucket held on this server the role the metadata names (T50): the leader of
 * an epoch starts a {@link LeaderReplica} (its log then acknowledges writes once the in-sync
 * replicas have them and shows readers the high watermark), a follower a {@link FollowerReplica}
 * with a {@link ReplicaFetcher} on the leader, a bucket without a leader refuses writes. A change
 * of leader or epoch ends the old role first: a deposed leader's waiting writes fail, a follower
 * stops fetching from its old leader. A new in-sync set for the same leader and epoch is handed to
 * the leader. Buckets with one replica are left alone: their log acknowledges once durable. A
 * primary-key bucket's KV state takes the role with its log: a new leader's state applies its whole
 * log before the log admits a write ({@link KvBucket#lead}), a follower's holds what is
 * acknowledged ({@link FollowerReplica}).
 *
 * <p>{@link #apply} runs on the metadata apply thread, one change at a time; fetches and the
 * periodic in-sync check run on this manager's threads.
 */
public final class ReplicaManager implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaManager.class);

    /** Where the in-sync set changes this server's leaders ask for go (the coordinator). */
    public interface InSyncChanges {
        /** Completes with the bucket's in-sync set as written, or fails typed. */
        CompletableFuture<List<Integer>> propose(
                TableBucket bucket, int leaderEpoch, List<Integer> isr);
    }

    private sealed interface Role {
        BucketReplicas meta();

        long highWatermark();

        void end();
    }

    private record Leading(BucketReplicas meta, LeaderReplica leader) implements Role {
        public long highWatermark() {
            return leader.highWatermark();
        }

        public void end() {
            leader.stop();
        }
    }

    private record Following(BucketReplicas meta, FollowerReplica follower, ReplicaFetcher fetcher)
            implements Role {
        public long highWatermark() {
            return follower.highWatermark();
        }

        public void end() {
            if (fetcher != null) {
                fetcher.close();
            }
        }
    }

    private final int serverId;
    private final Function<TableBucket, LogBucket> logs;
    private final Function<TableBucket, Optional<KvBucket>> kvs;
    private final ReplicaOptions.Settings settings;
    private final Clock clock;
    private final LeaderClients clients;
    private final ScheduledExecutorService executor;
    private final Map<TableBucket, Role> roles = new ConcurrentHashMap<>();
    private final MoveThrottle moveThrottle;
    private final BooleanSupplier storageRegistered;
    private volatile InSyncChanges changes =
            (bucket, epoch, isr) ->
                    CompletableFuture.failedFuture(
                            new IllegalStateException("no coordinator to write in-sync sets"));

    /**
     * @param logs the log of a bucket open in this server's store
     * @param kvs the KV state of a primary-key bucket open in this server's store
     * @param addresses the registered RPC address of a server id
     * @param token the cluster's bearer token, or empty
     * @param storageRegistered whether the metadata knows this server's data directory: false while
     *     it came back without its data and the coordinator has not yet taken it out of the in-sync
     *     sets (T53); it leads nothing until then
     */
    public ReplicaManager(
            int serverId,
            Function<TableBucket, LogBucket> logs,
            Function<TableBucket, Optional<KvBucket>> kvs,
            IntFunction<Optional<String>> addresses,
            String token,
            ReplicaOptions.Settings settings,
            Clock clock,
            BooleanSupplier storageRegistered) {
        this.serverId = serverId;
        this.storageRegistered = storageRegistered;
        this.logs = logs;
        this.kvs = kvs;
        this.settings = settings;
        this.clock = clock;
        this.moveThrottle = new MoveThrottle(settings.moveBytesPerSecond(), clock);
        this.clients = new LeaderClients(addresses, token, settings.maxBytes() + (1 << 20), 30_000);
        this.executor =
                Executors.newScheduledThreadPool(
                        2,
                        r -> {
                            Thread t = new Thread(r, "replica-fetcher");
                            t.setDaemon(true);
                            return t;
                        });
        long check = Math.max(1, settings.lagTimeMaxMillis() / 4);
        executor.scheduleWithFixedDelay(this::checkInSync, check, check, TimeUnit.MILLISECONDS);
        executor.scheduleWithFixedDelay(this::retryWaiting, check, check, TimeUnit.MILLISECONDS);
        executor.scheduleWithFixedDelay(
                this::checkpointHighWatermarks,
                settings.checkpointMillis(),
                settings.checkpointMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** Sends in-sync set changes to {@code changes} from now on. */
    public void useInSyncChanges(InSyncChanges changes) {
        this.changes = changes;
    }

    /** Applies the roles an assignment gives this server's replicas of a bucket group. */
    public void apply(BucketAssignment assignment) {
        for (int b = 0; b < assignment.bucketCount(); b++) {
            apply(
                    new TableBucket(assignment.tableId(), assignment.partitionId(), b),
                    assignment.replicasOf(b));
        }
    }

    /**
     * Makes the log of a bucket this server holds no replica of refuse writes (after its copy was
     * emptied and opened anew: the refusal went with the old log).
     */
    public void refuseWrites(TableBucket bucket, List<Integer> replicas) {
        logs.apply(bucket).replicate(new MovedAwayReplica(bucket, replicas, 0));
    }

    /** Applies one bucket's metadata to its replica on this server. */
    public synchronized void apply(TableBucket bucket, BucketReplicas meta) {
        Role current = roles.get(bucket);
        if (!meta.replicas().contains(serverId)) {
            if (current != null) {
                // moved away: takes no write; LocalBuckets deletes or empties the copy later
                current.end();
                roles.remove(bucket);
                logs.apply(bucket)
                        .replicate(
                                new MovedAwayReplica(
                                        bucket, meta.replicas(), current.highWatermark()));
            }
            return;
        }
        if (meta.replicas().size() == 1) {
            if (current != null) {
                // the bucket's only copy now (a move of a one-copy bucket ended here): a state
                // that followed takes the rest of its log before the log admits a write
                current.end();
                roles.remove(bucket);
                if (kvLeads(bucket, kvs.apply(bucket).orElse(null))) {
                    logs.apply(bucket).replicate(null);
                }
            }
            return;
        }
        if (current != null
                && current.meta().leader() == meta.leader()
                && current.meta().leaderEpoch() == meta.leaderEpoch()) {
            if (current instanceof Leading l) {
                l.leader().inSyncReplicas().onReplicasChanged(meta.replicas());
                l.leader().inSyncReplicas().onIsrCommitted(Set.copyOf(meta.isr()));
                roles.put(bucket, new Leading(meta, l.leader()));
            } else if (current instanceof Following f) {
                roles.put(bucket, new Following(meta, f.follower(), f.fetcher()));
            }
            return;
        }
        LogBucket log = logs.apply(bucket);
        // after a restart, the high watermark last checkpointed: what was acknowledged before
        long highWatermark =
                current == null
                        ? log.highWatermarkCheckpoint().read(log.writtenEndOffset())
                        : current.highWatermark();
        if (current != null) {
            current.end();
        }
        boolean lostData = meta.leader() == serverId && !storageRegistered.getAsBoolean();
        if (lostData) {
            LOG.warn(
                    "bucket {}: named leader in epoch {}, but this server came back without its"
                            + " data; it waits for the coordinator to move the leadership",
                    bucket,
                    meta.leaderEpoch());
        }
        KvBucket kv = kvs.apply(bucket).orElse(null);
        if (meta.leader() == serverId
                && !knowsNewerEpoch(log, meta)
                && !lostData
                && kvLeads(bucket, kv)) {
            int epoch = meta.leaderEpoch();
            LeaderReplica leader =
                    LeaderReplica.start(
                            bucket,
                            serverId,
                            meta,
                            log,
                            highWatermark,
                            // a moving bucket's replicas include the ones still copying
                            Math.min(
                                    settings.minInsync(),
                                    meta.moving() ? meta.target().size() : meta.replicas().size()),
                            settings.lagTimeMaxMillis(),
                            clock,
                            isr -> propose(bucket, epoch, isr),
                            executor);
            roles.put(bucket, new Leading(meta, leader));
            LOG.info("bucket {}: leading in epoch {}, in sync {}", bucket, epoch, meta.isr());
        } else {
            FollowerReplica follower =
                    new FollowerReplica(bucket, serverId, meta.leader(), log, kv, highWatermark);
            ReplicaFetcher fetcher = null;
            if (meta.hasLeader() && meta.leader() != serverId) {
                fetcher =
                        new ReplicaFetcher(
                                follower,
                                meta.leaderEpoch(),
                                clients.to(meta.leader()),
                                executor,
                                settings.backoffMillis(),
                                settings.maxWaitMillis(),
                                settings.maxBytes(),
                                bytes -> movingHere(bucket) ? moveThrottle.take(bytes) : 0);
                fetcher.start();
            }
            roles.put(bucket, new Following(meta, follower, fetcher));
            LOG.info(
                    "bucket {}: following server {} in epoch {}",
                    bucket,
                    meta.leader(),
                    meta.leaderEpoch());
        }
    }

    /** Whether this server's replica of {@code bucket} is one a move adds, not in sync yet. */
    private boolean movingHere(TableBucket bucket) {
        Role r = roles.get(bucket);
        return r != null && r.meta().moving() && !r.meta().isr().contains(serverId);
    }

    /**
     * Sends a leader's in-sync set change; the answer (or a refusal) reaches the leader if it still
     * leads in that epoch, so a change the metadata already had, or one that failed, does not stay
     * pending (a failed one is proposed again at the next check or fetch).
     */
    private void propose(TableBucket bucket, int epoch, Set<Integer> isr) {
        changes.propose(bucket, epoch, List.copyOf(isr))
                .whenComplete(
                        (written, error) -> {
                            if (!(roles.get(bucket) instanceof Leading l)
                                    || l.leader().leaderEpoch() != epoch) {
                                return;
                            }
                            if (error == null) {
                                l.leader().inSyncReplicas().onIsrWritten(isr, Set.copyOf(written));
                            } else {
                                l.leader().inSyncReplicas().onIsrChangeRefused(isr);
                            }
                        });
    }

    /**
     * Makes a primary-key bucket's state match its whole log before the log admits a write; a state
     * that cannot (a RocksDB or disk failure) leaves the replica waiting, taking no writes, and it
     * is tried again with the other waiting ones.
     */
    private static boolean kvLeads(TableBucket bucket, KvBucket kv) {
        if (kv == null) {
            return true;
        }
        try {
            kv.lead();
            return true;
        } catch (RuntimeException e) {
            LOG.error(
                    "bucket {}: named leader, but its KV state cannot take its log; it takes no"
                            + " writes and tries again",
                    bucket,
                    e);
            return false;
        }
    }

    /**
     * Whether this replica's log already holds a newer epoch than the metadata names: the metadata
     * applied here is behind (a restart replays it from an older point). The replica then waits,
     * taking no writes, for the newer metadata instead of leading an old epoch again.
     */
    private static boolean knowsNewerEpoch(LogBucket log, BucketReplicas meta) {
        return log.leaderEpochs().latest().map(e -> e.epoch() > meta.leaderEpoch()).orElse(false);
    }

    /**
     * Applies again the metadata of buckets this server was named to lead but did not (its data was
     * lost and not yet recorded, its log knew a newer epoch, or its KV state failed): the reason
     * may be gone.
     */
    private synchronized void retryWaiting() {
        for (Map.Entry<TableBucket, Role> e : List.copyOf(roles.entrySet())) {
            if (e.getValue() instanceof Following f
                    && f.fetcher() == null
                    && f.meta().leader() == serverId
                    && storageRegistered.getAsBoolean()
                    && !knowsNewerEpoch(logs.apply(e.getKey()), f.meta())) {
                roles.remove(e.getKey());
                try {
                    apply(e.getKey(), f.meta());
                } catch (RuntimeException failure) {
                    LOG.warn("bucket {}: cannot take its role", e.getKey(), failure);
                }
            }
        }
    }

    /** Ends the roles of the buckets {@code which} names (their table or partition is going). */
    public synchronized void forget(Predicate<TableBucket> which) {
        for (TableBucket b : List.copyOf(roles.keySet())) {
            if (which.test(b)) {
                roles.remove(b).end();
            }
        }
    }

    /** Whether this server holds a replica of a replicated bucket (leading or following). */
    public boolean holdsReplicas() {
        return !roles.isEmpty();
    }

    /** The leader replica of a bucket this server leads, for followers' fetches. */
    public Optional<LeaderReplica> leaderOf(TableBucket bucket) {
        return roles.get(bucket) instanceof Leading l ? Optional.of(l.leader()) : Optional.empty();
    }

    private void checkInSync() {
        for (Role r : roles.values()) {
            if (r instanceof Leading l) {
                try {
                    l.leader().checkInSync();
                } catch (RuntimeException e) {
                    LOG.warn("in-sync check of a bucket failed", e);
                }
            }
        }
    }

    /**
     * Writes each replica's high watermark to disk (those that changed since the last time); not
     * under this manager's lock, so that role changes never wait for these fsyncs.
     */
    private void checkpointHighWatermarks() {
        roles.forEach(
                (bucket, role) -> {
                    try {
                        logs.apply(bucket).highWatermarkCheckpoint().write(role.highWatermark());
                    } catch (RuntimeException e) {
                        LOG.warn("bucket {}: cannot checkpoint its high watermark", bucket, e);
                    }
                });
    }

    @Override
    public synchronized void close() {
        checkpointHighWatermarks();
        roles.values().forEach(Role::end);
        roles.clear();
        executor.shutdownNow();
        clients.close();
    }
}
