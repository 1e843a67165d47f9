package dev.tributary.cluster;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.exception.NotCoordinatorException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.store.MetadataListener;
import dev.tributary.coordinator.store.MetadataRecords;
import dev.tributary.coordinator.store.MetadataStore;
import dev.tributary.coordinator.store.StoredState;
import dev.tributary.coordinator.store.TieringRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.ratis.proto.RaftProtos.CommitInfoProto;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.TransferLeadershipRequest;
import org.apache.ratis.protocol.exceptions.NotLeaderException;
import org.apache.ratis.protocol.exceptions.RaftException;
import org.apache.ratis.protocol.exceptions.StateMachineException;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link MetadataStore} replicated on the cluster's voters by an embedded Apache Ratis server
 * (T49). Each mutation is one Raft log entry ({@link MetadataRecords}); a call returns once its
 * entry is committed (fsync'd on a majority) and applied here, with the apply's result. Only the
 * leader takes writes: on any other server they fail with {@link NotCoordinatorException} naming
 * the leader when known.
 *
 * <p>{@link #load()} is a linearizable read: it confirms with a majority that the leader is still
 * the leader, waits until this server applied every entry committed before, then answers from the
 * applied image; it works on followers too. {@link #tieringRecord} answers from the local image
 * without that round trip: on the leader it holds every write the leader acknowledged.
 *
 * <p>Errors say what the caller can do: {@link NotCoordinatorException} (a {@code FencedException})
 * when this server is not the leader or lost leadership while the write was in flight; {@link
 * RetriableException} when no majority answered within {@code cluster.request-timeout} (the write
 * may still be applied: the records are absolute, so a retry after reloading is safe); {@link
 * StorageException} once closed. Thread safe.
 */
public final class RaftMetadataStore implements MetadataStore, MetadataLeadership {
    private static final Logger LOG = LoggerFactory.getLogger(RaftMetadataStore.class);

    /** Checks without entries, two election timeouts apart, before the leadership is moved. */
    private static final int CATCH_UP_PATIENCE = 3;

    private final ClusterConfig config;
    private final RaftGroupId groupId;
    private final RaftPeerId selfId;
    private final ClientId clientId = ClientId.randomId();
    private final AtomicLong callIds = new AtomicLong();
    private final MetadataStateMachine stateMachine;
    private final RaftServer server;
    private final QuorumAdmin admin;
    private final long requestTimeoutMs;
    private final List<LeadershipListener> listeners = new CopyOnWriteArrayList<>();

    /** Runs the listeners, in event order, off Ratis's threads; and the catch-up checks. */
    private final ScheduledExecutorService events;

    // only touched on the events thread
    private boolean leading;
    private long leaderTerm = -1;
    private Optional<String> lastLeaderTold;

    private volatile boolean closed;

    private RaftMetadataStore(ClusterConfig config, Path dir) throws IOException {
        this.config = config;
        this.groupId = RaftSettings.groupId(config.clusterId());
        this.selfId = RaftSettings.peerId(config.serverId());
        this.requestTimeoutMs = config.requestTimeout().toMillis();
        this.admin = new QuorumAdmin(config);
        this.events =
                Executors.newSingleThreadScheduledExecutor(
                        r -> {
                            Thread t = new Thread(r, "cluster-leadership-" + config.serverId());
                            t.setDaemon(true);
                            return t;
                        });
        this.stateMachine =
                new MetadataStateMachine(
                        new MetadataStateMachine.Events() {
                            @Override
                            public void leaderReady(long term) {
                                events.execute(() -> onLeaderReady(term));
                            }

                            @Override
                            public void notLeader(Optional<String> leaderId) {
                                events.execute(() -> onNotLeader(leaderId));
                            }
                        });
        this.server =
                RaftServer.newBuilder()
                        .setServerId(selfId)
                        .setGroup(RaftSettings.group(config))
                        .setStateMachine(stateMachine)
                        .setProperties(RaftSettings.properties(config, dir))
                        // an empty directory is formatted: a new voter, or one whose disk was
                        // wiped, then catches up from the leader (log or snapshot)
                        .setOption(RaftStorage.StartupOption.RECOVER)
                        .build();
    }

    /**
     * Starts this server's Ratis peer with its storage in {@code dir} (created if needed; e.g.
     * {@code <data.dir>/raft}) and joins the voters. Returns at once: {@link #isLeader()} and the
     * listeners tell when an election made this server the leader.
     *
     * @throws StorageException if the directory cannot be used or the Raft port not bound
     */
    public static RaftMetadataStore start(ClusterConfig config, Path dir) {
        RaftMetadataStore store;
        boolean empty;
        try {
            empty = isEmpty(dir);
            Files.createDirectories(dir);
            store = new RaftMetadataStore(config, dir);
        } catch (IOException e) {
            throw new StorageException(
                    "cannot open the cluster metadata in " + dir + ": " + e.getMessage(), e);
        }
        try {
            store.server.start();
        } catch (IOException e) {
            store.close();
            throw new StorageException(
                    "cannot start the cluster metadata server "
                            + config.self()
                            + " (is the Raft port in use?): "
                            + e.getMessage(),
                    e);
        }
        LOG.info(
                "cluster '{}': metadata server {} started{}; voters {}",
                config.clusterId(),
                config.self(),
                config.isObserver() ? " as an observer" : "",
                config.voters());
        if (config.isObserver()) {
            store.joinAsObserver();
        }
        store.watchCatchUp(empty);
        return store;
    }

    /**
     * Has the quorum add this observer to its configuration as a listener (a no-op once it is),
     * retrying every election timeout until the voters answer: until then the leader sends it
     * nothing. Off the caller's thread, as a voter's start does not wait for an election either.
     */
    private void joinAsObserver() {
        Thread t =
                new Thread(
                        () -> {
                            while (!closed) {
                                try {
                                    admin.addListener(RaftSettings.observerPeer(config));
                                    LOG.info(
                                            "cluster '{}': observer {} is in the quorum's"
                                                    + " configuration",
                                            config.clusterId(),
                                            serverId());
                                    return;
                                } catch (IOException | RuntimeException e) {
                                    LOG.warn(
                                            "cluster '{}': observer {} cannot join the quorum"
                                                    + " yet ({}); retrying",
                                            config.clusterId(),
                                            serverId(),
                                            e.toString());
                                }
                                try {
                                    Thread.sleep(config.electionTimeout().toMillis());
                                } catch (InterruptedException e) {
                                    return;
                                }
                            }
                        },
                        "cluster-join-" + config.serverId());
        t.setDaemon(true);
        t.start();
    }

    private static boolean isEmpty(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return true;
        }
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            return files.findAny().isEmpty();
        }
    }

    /**
     * Checks every two election timeouts that this server's metadata log (a voter's or an
     * observer's) grows while it lags, and has the leadership moved if it does not ({@link
     * StalledCatchUp}).
     */
    private void watchCatchUp(boolean startedEmpty) {
        StalledCatchUp catchUp =
                new StalledCatchUp(
                        serverId(),
                        config.voters().stream().map(v -> Integer.toString(v.id())).toList(),
                        CATCH_UP_PATIENCE,
                        startedEmpty,
                        new StalledCatchUp.Voter() {
                            @Override
                            public long lastLogIndex() {
                                return division().getRaftLog().getNextIndex() - 1;
                            }

                            @Override
                            public OptionalLong reportedCommitIndex() {
                                return division().getCommitInfos().stream()
                                        .filter(
                                                c ->
                                                        !c.getServer()
                                                                .getId()
                                                                .equals(selfId.toByteString()))
                                        .mapToLong(CommitInfoProto::getCommitIndex)
                                        .max();
                            }

                            @Override
                            public Optional<String> leaderId() {
                                return RaftMetadataStore.this.leaderId();
                            }

                            @Override
                            public void transferLeadership(String leader, String target) {
                                moveLeadership(leader, target);
                            }
                        });
        long period = 2 * config.electionTimeout().toMillis();
        events.scheduleWithFixedDelay(
                () -> {
                    if (closed) {
                        return;
                    }
                    try {
                        catchUp.check();
                    } catch (RuntimeException e) {
                        LOG.warn("checking that the metadata log catches up failed", e);
                    }
                },
                period,
                period,
                TimeUnit.MILLISECONDS);
    }

    /** Asks {@code leader} to hand the leadership to {@code target}, off the events thread. */
    private void moveLeadership(String leader, String target) {
        LOG.warn(
                "cluster '{}': server {}'s metadata log lags and leader {} sends it no entries"
                        + " (RATIS-2523); asking {} to hand the leadership to {}",
                config.clusterId(),
                serverId(),
                leader,
                leader,
                target);
        Thread t =
                new Thread(
                        () -> {
                            try {
                                admin.transferLeadership(leader, target);
                            } catch (IOException | RuntimeException e) {
                                LOG.warn("moving the metadata leadership to {} failed", target, e);
                            }
                        },
                        "cluster-catch-up-" + config.serverId());
        t.setDaemon(true);
        t.start();
    }

    // ------------------------------------------------------------------ leadership

    /** This server's id (a voter's, or an observer's). */
    public String serverId() {
        return selfId.toString();
    }

    /**
     * Whether this server is the leader and has applied everything committed before its term: the
     * one server that may act as coordinator. May turn false at any moment; writes are what fence.
     */
    public boolean isLeader() {
        if (closed) {
            return false;
        }
        DivisionInfo info = info();
        return info.isLeader() && info.isLeaderReady();
    }

    @Override
    public void yieldLeadership() {
        if (closed || !info().isLeader()) {
            return;
        }
        // no new leader named: Ratis steps this leader down and the voters hold an election
        TransferLeadershipRequest stepDown =
                new TransferLeadershipRequest(
                        clientId,
                        selfId,
                        groupId,
                        callIds.incrementAndGet(),
                        null,
                        requestTimeoutMs);
        LOG.warn(
                "cluster '{}': server {} gives up the leadership (term {}) to an election",
                config.clusterId(),
                serverId(),
                currentTerm());
        try {
            server.transferLeadershipAsync(stepDown)
                    .whenComplete(
                            (reply, error) -> {
                                if (error != null) {
                                    warnNotYielded(error);
                                } else if (!reply.isSuccess()) {
                                    warnNotYielded(reply.getException());
                                }
                            });
        } catch (IOException e) {
            warnNotYielded(e);
        }
    }

    private void warnNotYielded(Throwable refused) {
        LOG.warn(
                "cluster '{}': server {} could not give up the leadership: {}",
                config.clusterId(),
                serverId(),
                refused.toString());
    }

    @Override
    public long lastLogIndex() {
        return closed ? 0 : division().getRaftLog().getNextIndex() - 1;
    }

    @Override
    public long appliedIndex() {
        TermIndex at = stateMachine.getLastAppliedTermIndex();
        return at == null ? 0 : at.getIndex();
    }

    /** The current leader's server id, as this server knows it. */
    public Optional<String> leaderId() {
        if (closed) {
            return Optional.empty();
        }
        return Optional.ofNullable(info().getLeaderId()).map(RaftPeerId::toString);
    }

    /**
     * The observers in the quorum's configuration as this server knows it: servers added to the
     * running cluster, which get the metadata but neither vote nor lead.
     */
    public Set<String> observerIds() {
        return peerIds(RaftPeerRole.LISTENER);
    }

    private Set<String> peerIds(RaftPeerRole role) {
        if (closed) {
            return Set.of();
        }
        return division().getRaftConf().getCurrentPeers(role).stream()
                .map(p -> p.getId().toString())
                .collect(Collectors.toSet());
    }

    /** The voters in the quorum's configuration as this server knows it. */
    public Set<String> voterIds() {
        return peerIds(RaftPeerRole.FOLLOWER);
    }

    /**
     * Takes observer {@code id} out of the quorum's configuration, so the leader stops sending it
     * entries (a drained server leaving the cluster); nothing if it is not in it. Blocks for one
     * Raft round. A server removed this way that starts again joins again.
     *
     * @throws RetriableException if the configuration cannot be changed now (no leader, another
     *     change in flight)
     */
    public void removeObserver(String id) {
        checkOpen();
        try {
            if (!admin.removeListener(division().getRaftConf(), id)) {
                return;
            }
        } catch (IOException | RuntimeException e) {
            throw translate(e, "remove observer " + id + " from the quorum");
        }
        LOG.info(
                "cluster '{}': observer {} left the quorum's configuration",
                config.clusterId(),
                id);
    }

    /** The Raft term this server is in. */
    public long currentTerm() {
        return info().getCurrentTerm();
    }

    /** The first index still in this server's Raft log (above 0 once a snapshot purged some). */
    long logStartIndex() {
        return division().getRaftLog().getStartIndex();
    }

    /**
     * Adds a listener; it is first told the current state (leader ready, or not the leader), then
     * every change until {@link #close()} (which tells it nothing).
     */
    public void addLeadershipListener(LeadershipListener listener) {
        events.execute(
                () -> {
                    listeners.add(listener);
                    if (leading) {
                        call(listener, l -> l.onLeaderReady(leaderTerm));
                    } else {
                        call(listener, l -> l.onNotLeader(leaderIdOrEmpty()));
                    }
                });
    }

    private Optional<String> leaderIdOrEmpty() {
        try {
            return leaderId();
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private void onLeaderReady(long term) {
        leading = true;
        leaderTerm = term;
        lastLeaderTold = Optional.of(serverId());
        LOG.info("cluster '{}': server {} leads term {}", config.clusterId(), serverId(), term);
        listeners.forEach(listener -> call(listener, l -> l.onLeaderReady(term)));
    }

    private void onNotLeader(Optional<String> leaderId) {
        if (closed) {
            // closing steps this peer down: that is not a lost election to act on
            return;
        }
        if (!leading && leaderId.equals(lastLeaderTold)) {
            return;
        }
        if (leading) {
            LOG.warn(
                    "cluster '{}': server {} is no longer the leader (term {}); leader now {}",
                    config.clusterId(),
                    serverId(),
                    leaderTerm,
                    leaderId.orElse("unknown"));
        }
        leading = false;
        lastLeaderTold = leaderId;
        listeners.forEach(listener -> call(listener, l -> l.onNotLeader(leaderId)));
    }

    private static void call(
            LeadershipListener listener, java.util.function.Consumer<LeadershipListener> event) {
        try {
            event.accept(listener);
        } catch (RuntimeException e) {
            LOG.error("leadership listener {} failed", listener, e);
        }
    }

    private DivisionInfo info() {
        return division().getInfo();
    }

    private RaftServer.Division division() {
        try {
            return server.getDivision(groupId);
        } catch (IOException e) {
            throw new StorageException("the cluster metadata server is not running: " + e, e);
        }
    }

    // ------------------------------------------------------------------ MetadataStore

    @Override
    public StoredState load() {
        checkOpen();
        await(RaftClientRequest.readRequestType(), Message.EMPTY, "read the metadata");
        return stateMachine.state();
    }

    /** The state applied on this server so far, with no barrier: may lag the leader. */
    public StoredState localState() {
        return stateMachine.state();
    }

    /**
     * The tiering records applied on this server so far, with no barrier (may lag the leader); a
     * copy of those alone, for a periodic reader that needs no more.
     */
    public java.util.Map<Long, dev.tributary.coordinator.store.TieringRecord>
            localTieringRecords() {
        return stateMachine.tieringRecords();
    }

    @Override
    public long startIncarnation() {
        return write(MetadataRecords.nextIncarnation(), "start a coordinator incarnation");
    }

    @Override
    public void putDatabase(DatabaseInfo database) {
        write(MetadataRecords.putDatabase(database), "store database " + database.name());
    }

    @Override
    public void removeDatabase(String name) {
        write(MetadataRecords.removeDatabase(name), "remove database " + name);
    }

    @Override
    public void putTable(TableInfo table) {
        write(MetadataRecords.putTable(table), "store table " + table.path());
    }

    @Override
    public void removeTable(long tableId) {
        write(MetadataRecords.removeTable(tableId), "remove table " + tableId);
    }

    @Override
    public boolean putTieringRecord(TieringRecord record) {
        return write(
                        MetadataRecords.putTieringRecord(record),
                        "store the tiering record of table " + record.tableId())
                == 1;
    }

    @Override
    public void putPartition(PartitionInfo partition) {
        write(
                MetadataRecords.putPartition(partition),
                "store partition " + partition.partitionId());
    }

    @Override
    public void removePartition(long tableId, long partitionId) {
        write(
                MetadataRecords.removePartition(tableId, partitionId),
                "remove partition " + partitionId);
    }

    @Override
    public void putServer(ServerRegistration server) {
        write(MetadataRecords.putServer(server), "register server " + server.serverId());
    }

    @Override
    public void removeServer(int serverId) {
        write(MetadataRecords.removeServer(serverId), "remove server " + serverId);
    }

    @Override
    public void setDraining(int serverId, boolean draining) {
        write(
                MetadataRecords.setDraining(serverId, draining),
                (draining ? "drain server " : "undrain server ") + serverId);
    }

    @Override
    public boolean putAssignment(dev.tributary.coordinator.metadata.BucketAssignment assignment) {
        return write(
                        MetadataRecords.putAssignment(assignment),
                        "assign the buckets of table "
                                + assignment.tableId()
                                + (assignment.partitionId() < 0
                                        ? ""
                                        : " partition " + assignment.partitionId()))
                == 1;
    }

    @Override
    public void setListener(MetadataListener listener) {
        stateMachine.setListener(listener);
    }

    @Override
    public java.util.Map<Integer, ServerRegistration> servers() {
        checkOpen();
        return stateMachine.servers();
    }

    @Override
    public Optional<TieringRecord> tieringRecord(long tableId) {
        checkOpen();
        return stateMachine.tieringRecord(tableId);
    }

    private long write(byte[] record, String what) {
        checkOpen();
        RaftClientReply reply =
                await(
                        RaftClientRequest.writeRequestType(),
                        Message.valueOf(UnsafeByteOperations.unsafeWrap(record)),
                        what);
        return MetadataStateMachine.decodeResult(reply.getMessage().getContent());
    }

    /** Submits to the local Ratis server and waits at most the request timeout. */
    private RaftClientReply await(RaftClientRequest.Type type, Message message, String what) {
        RaftClientRequest request =
                RaftClientRequest.newBuilder()
                        .setClientId(clientId)
                        .setServerId(selfId)
                        .setGroupId(groupId)
                        .setCallId(callIds.incrementAndGet())
                        .setMessage(message)
                        .setType(type)
                        .setTimeoutMs(requestTimeoutMs)
                        .build();
        CompletableFuture<RaftClientReply> future;
        RaftClientReply reply;
        try {
            future = server.submitClientRequestAsync(request);
            reply = future.get(requestTimeoutMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new RetriableException(
                    "cannot "
                            + what
                            + ": no majority of the cluster's voters answered within "
                            + config.requestTimeout()
                            + " (cluster.request-timeout); it may still be applied: reload and"
                            + " retry",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RetriableException("interrupted while waiting to " + what, e);
        } catch (ExecutionException e) {
            throw translate(e.getCause(), what);
        } catch (IOException e) {
            throw translate(e, what);
        }
        if (!reply.isSuccess()) {
            throw translate(reply.getException(), what);
        }
        return reply;
    }

    private TributaryException translate(Throwable error, String what) {
        Throwable e = error;
        while (e instanceof java.util.concurrent.CompletionException && e.getCause() != null) {
            e = e.getCause();
        }
        if (closed) {
            return new StorageException("the cluster metadata store is closed", e);
        }
        if (e instanceof NotLeaderException nle) {
            return notCoordinator(Optional.ofNullable(nle.getSuggestedLeader()), what);
        }
        if (e instanceof StateMachineException && e.getCause() instanceof CorruptDataException c) {
            return c;
        }
        if (e instanceof TributaryException t) {
            return t;
        }
        String kind = e instanceof RaftException ? e.getClass().getSimpleName() : e.toString();
        return new RetriableException(
                "cannot " + what + " now (" + kind + ": " + e.getMessage() + "); retry", e);
    }

    private NotCoordinatorException notCoordinator(Optional<RaftPeer> leader, String what) {
        Optional<RaftPeer> other = leader.filter(p -> !p.getId().equals(selfId));
        String where =
                other.map(
                                p ->
                                        "the leader is server "
                                                + p.getId()
                                                + " ("
                                                + p.getAddress()
                                                + "): send it there")
                        .orElse("no leader is known yet (an election is running): retry shortly");
        return new NotCoordinatorException(
                "cannot "
                        + what
                        + ": server "
                        + serverId()
                        + " is not the leader of cluster '"
                        + config.clusterId()
                        + "'; "
                        + where,
                other.map(p -> p.getId().toString()).orElse(null));
    }

    private void checkOpen() {
        if (closed) {
            throw new StorageException(
                    "the cluster metadata store of server " + serverId() + " is closed");
        }
    }

    /** Stops this server's Ratis peer (the others elect a new leader if it led). */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            LOG.warn("closing the cluster metadata server {} failed", serverId(), e);
        }
        events.shutdown();
    }
}
