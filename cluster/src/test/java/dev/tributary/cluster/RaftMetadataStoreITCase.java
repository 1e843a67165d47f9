package dev.tributary.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.NotCoordinatorException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.io.DurableFiles;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.store.AppliedTable;
import dev.tributary.coordinator.store.MetadataListener;
import dev.tributary.coordinator.store.StoredState;
import dev.tributary.coordinator.store.TieringRecord;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Three real Ratis peers in one JVM over loopback gRPC (T49). */
class RaftMetadataStoreITCase {
    private static final Duration ELECTION = Duration.ofMillis(500);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir Path dir;

    private final RaftMetadataStore[] peers = new RaftMetadataStore[3];
    private final List<List<String>> events = new ArrayList<>();
    private List<ClusterConfig.Voter> voters;
    private long snapshotThreshold = 10_000;

    @AfterEach
    void closeAll() {
        for (RaftMetadataStore p : peers) {
            if (p != null) {
                p.close();
            }
        }
    }

    private void startCluster() throws IOException {
        voters = new ArrayList<>();
        int[] ports = freePorts(3);
        for (int i = 0; i < 3; i++) {
            voters.add(new ClusterConfig.Voter(i + 1, "127.0.0.1", ports[i]));
        }
        for (int i = 0; i < 3; i++) {
            events.add(new CopyOnWriteArrayList<>());
            start(i);
        }
    }

    private void start(int i) {
        ClusterConfig config =
                new ClusterConfig(
                        "it",
                        i + 1,
                        voters,
                        ELECTION,
                        REQUEST_TIMEOUT,
                        snapshotThreshold,
                        64 * 1024);
        peers[i] = RaftMetadataStore.start(config, dir.resolve("server-" + (i + 1)));
        List<String> log = events.get(i);
        peers[i].addLeadershipListener(
                new LeadershipListener() {
                    @Override
                    public void onLeaderReady(long term) {
                        log.add("ready:" + term);
                    }

                    @Override
                    public void onNotLeader(Optional<String> leaderId) {
                        log.add("not-leader:" + leaderId.orElse("?"));
                    }
                });
    }

    private void stop(int i) {
        peers[i].close();
        peers[i] = null;
    }

    private static int freePort() throws IOException {
        return freePorts(1)[0];
    }

    /**
     * {@code n} distinct free ports: all held open until each is picked, since a port closed at
     * once may be handed out again (two voters got the same one, and Ratis exits the JVM when it
     * cannot bind).
     */
    private static int[] freePorts(int n) throws IOException {
        ServerSocket[] held = new ServerSocket[n];
        try {
            int[] ports = new int[n];
            for (int i = 0; i < n; i++) {
                held[i] = new ServerSocket(0);
                ports[i] = held[i].getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket s : held) {
                if (s != null) {
                    s.close();
                }
            }
        }
    }

    /** The index of the one ready leader among the running peers. */
    private int awaitLeader() {
        return await().atMost(WAIT)
                .until(
                        () -> {
                            List<Integer> leaders =
                                    IntStream.range(0, 3)
                                            .filter(i -> peers[i] != null && peers[i].isLeader())
                                            .boxed()
                                            .toList();
                            return leaders.size() == 1 ? leaders.get(0) : -1;
                        },
                        i -> i >= 0);
    }

    /** The tables a server's listener holds: what the server would open (T49). */
    private static final class FollowedTables implements MetadataListener {
        final Set<Long> tables = ConcurrentHashMap.newKeySet();
        final AtomicInteger resets = new AtomicInteger();

        @Override
        public void onReset(StoredState state) {
            resets.incrementAndGet();
            tables.clear();
            tables.addAll(state.tables().keySet());
        }

        @Override
        public void onTableChanged(long tableId, Optional<AppliedTable> table) {
            if (table.isPresent()) {
                tables.add(tableId);
            } else {
                tables.remove(tableId);
            }
        }
    }

    private FollowedTables follow(int i) {
        FollowedTables f = new FollowedTables();
        peers[i].setListener(f);
        return f;
    }

    private static TableInfo table(long id, int padding) {
        Schema s =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column("v", DataTypes.STRING())
                        .primaryKey("id")
                        .build();
        TableDescriptor d =
                TableDescriptor.builder(s)
                        .bucketCount(2)
                        .property("table.datalake.enabled", "true")
                        .comment("x".repeat(padding))
                        .build();
        return TableInfo.create(id, TablePath.of("db", "t" + id), d, 1000 + id);
    }

    private static TieringRecord record(long tableId, long offset) {
        return TieringRecord.initial(tableId, 1)
                .afterRound(
                        Map.of(new PartitionBucket(-1, 0), offset), 5, 6, 1L << 32, 1, false, null);
    }

    @Test
    void writesReplicateFollowersRefuseWritesAndFailoverKeepsEveryAcknowledgedWrite()
            throws IOException {
        startCluster();
        int leader = awaitLeader();
        RaftMetadataStore l = peers[leader];
        assertThat(l.leaderId()).contains(l.serverId());
        List<FollowedTables> followed = List.of(follow(0), follow(1), follow(2));

        long firstIncarnation = l.startIncarnation();
        assertThat(firstIncarnation).isEqualTo(1);
        l.putDatabase(new DatabaseInfo("db", "orders", 1));
        for (long id = 1; id <= 5; id++) {
            l.putTable(table(id, 10));
        }
        assertThat(l.putTieringRecord(record(1, 100))).isTrue();
        l.removeTable(2);
        // a commit finishing after the DROP is refused atomically at apply time
        assertThat(l.putTieringRecord(record(2, 100))).isFalse();
        assertThat(l.tieringRecord(1)).contains(record(1, 100));
        ServerRegistration registered = new ServerRegistration(leader + 1, "h:9123", "h:8080", 7);
        l.putServer(registered);
        StoredState acknowledged = l.load();
        assertThat(acknowledged.servers()).containsExactly(Map.entry(leader + 1, registered));
        assertThat(l.servers()).isEqualTo(acknowledged.servers());
        assertThat(acknowledged.tables()).containsOnlyKeys(1L, 3L, 4L, 5L);
        assertThat(acknowledged.tiering()).containsOnlyKeys(1L);

        for (int i = 0; i < 3; i++) {
            RaftMetadataStore p = peers[i];
            await().atMost(WAIT).until(() -> p.localState().equals(acknowledged));
            // every server, follower or leader, learns the tables from the log it applies
            assertThat(followed.get(i).tables).containsExactlyInAnyOrder(1L, 3L, 4L, 5L);
        }

        int follower = (leader + 1) % 3;
        RaftMetadataStore f = peers[follower];
        assertThat(f.isLeader()).isFalse();
        assertThat(f.load()).as("a linearizable read on a follower").isEqualTo(acknowledged);
        assertThatThrownBy(() -> f.putTable(table(9, 10)))
                .isInstanceOf(NotCoordinatorException.class)
                .isInstanceOf(FencedException.class)
                .hasMessageContaining("is not the leader")
                .hasMessageContaining("the leader is server " + l.serverId())
                .satisfies(
                        e ->
                                assertThat(((NotCoordinatorException) e).leaderId())
                                        .contains(l.serverId()));
        assertThat(events.get(leader)).anyMatch(e -> e.startsWith("ready:"));
        assertThat(events.get(follower)).contains("not-leader:" + l.serverId());

        long oldTerm = l.currentTerm();
        stop(leader);
        int next = awaitLeader();
        RaftMetadataStore n = peers[next];
        assertThat(n.currentTerm()).isGreaterThan(oldTerm);
        assertThat(n.load()).isEqualTo(acknowledged);
        assertThat(n.startIncarnation()).isGreaterThan(firstIncarnation);
        assertThat(events.get(next)).contains("ready:" + n.currentTerm());
        n.putTable(table(6, 10));
        assertThat(n.load().tables()).containsKey(6L);
    }

    /**
     * T49: a leader that gives the leadership up (its coordinator stopped on a write the quorum did
     * not confirm) holds an election: a leader of a higher term is told it is ready, with every
     * acknowledged write in its image, and takes writes; a follower's yield changes nothing.
     */
    @Test
    void aLeaderThatYieldsTheLeadershipHasALeaderOfANewTermElectedWithEveryAcknowledgedWrite()
            throws IOException {
        startCluster();
        int leader = awaitLeader();
        RaftMetadataStore l = peers[leader];
        l.putDatabase(new DatabaseInfo("db", "orders", 1));
        l.putTable(table(1, 10));
        StoredState acknowledged = l.load();
        long oldTerm = l.currentTerm();

        peers[(leader + 1) % 3].yieldLeadership();
        assertThat(l.isLeader()).isTrue();
        assertThat(l.currentTerm()).isEqualTo(oldTerm);

        l.yieldLeadership();
        await().atMost(WAIT)
                .until(
                        () ->
                                IntStream.range(0, 3)
                                        .anyMatch(
                                                i ->
                                                        peers[i].isLeader()
                                                                && peers[i].currentTerm()
                                                                        > oldTerm));
        int next = awaitLeader();
        RaftMetadataStore n = peers[next];
        assertThat(events.get(next)).contains("ready:" + n.currentTerm());
        assertThat(events.get(leader)).anyMatch(e -> e.startsWith("not-leader:"));
        assertThat(n.load()).isEqualTo(acknowledged);
        n.putTable(table(2, 10));
        assertThat(n.load().tables()).containsOnlyKeys(1L, 2L);
    }

    /**
     * Issue 23: a server added to the running cluster joins the quorum as a non-voting listener: it
     * gets the whole metadata (entries from before it joined too), never leads and refuses writes
     * naming the leader; it follows a new leader after a failover and rejoins after a restart.
     */
    @Test
    void anObserverFollowsTheMetadataWithoutVoting() throws IOException {
        startCluster();
        int leader = awaitLeader();
        for (long id = 1; id <= 3; id++) {
            peers[leader].putTable(table(id, 10));
        }
        ClusterConfig observerConfig =
                new ClusterConfig(
                        "it",
                        4,
                        voters,
                        ELECTION,
                        REQUEST_TIMEOUT,
                        snapshotThreshold,
                        64 * 1024,
                        Optional.of(new ClusterConfig.Voter(4, "127.0.0.1", freePort())));
        Path observerDir = dir.resolve("server-4");
        RaftMetadataStore observer = RaftMetadataStore.start(observerConfig, observerDir);
        try {
            FollowedTables followed = new FollowedTables();
            observer.setListener(followed);
            StoredState before = peers[leader].load();
            await().atMost(WAIT).until(() -> observer.localState().equals(before));
            assertThat(followed.tables).containsExactlyInAnyOrder(1L, 2L, 3L);
            String leaderId = peers[leader].serverId();
            await().atMost(WAIT).until(() -> observer.leaderId().equals(Optional.of(leaderId)));
            assertThat(observer.isLeader()).isFalse();
            await().atMost(WAIT).until(() -> peers[leader].observerIds().equals(Set.of("4")));
            assertThat(peers[leader].voterIds()).containsExactlyInAnyOrder("1", "2", "3");
            assertThatThrownBy(() -> observer.putTable(table(9, 10)))
                    .isInstanceOf(NotCoordinatorException.class)
                    .hasMessageContaining("the leader is server " + leaderId);

            stop(leader);
            int next = awaitLeader();
            assertThat(observer.isLeader()).isFalse();
            peers[next].putTable(table(4, 10));
            await().atMost(WAIT).until(() -> followed.tables.contains(4L));
            await().atMost(WAIT)
                    .until(() -> observer.leaderId().equals(Optional.of(peers[next].serverId())));
        } finally {
            observer.close();
        }

        // restarted, then restarted with its disk wiped: it gets the whole metadata again
        for (boolean wipe : new boolean[] {false, true}) {
            if (wipe) {
                DurableFiles.deleteRecursively(observerDir);
            }
            RaftMetadataStore again = RaftMetadataStore.start(observerConfig, observerDir);
            try {
                int current = awaitLeader();
                peers[current].putTable(table(wipe ? 7 : 5, 10));
                StoredState after = peers[current].load();
                await().atMost(WAIT).until(() -> again.localState().equals(after));
                assertThat(again.isLeader()).isFalse();
            } finally {
                again.close();
            }
        }

        // stopped, the observer leaves the quorum's configuration (the leader stops sending);
        // a leader stepping down meanwhile refuses (retriably, or as no longer leading), and the
        // caller retries at the next
        await().atMost(WAIT)
                .ignoreExceptionsMatching(
                        e ->
                                e instanceof RetriableException
                                        || e instanceof NotCoordinatorException)
                .until(
                        () -> {
                            RaftMetadataStore now = peers[awaitLeader()];
                            if (now.observerIds().contains("4")) {
                                now.removeObserver("4");
                            }
                            return now.observerIds().isEmpty();
                        });
        await().atMost(WAIT)
                .ignoreExceptionsMatching(
                        e ->
                                e instanceof RetriableException
                                        || e instanceof NotCoordinatorException)
                .untilAsserted(
                        () -> {
                            RaftMetadataStore now = peers[awaitLeader()];
                            now.removeObserver("4"); // gone already: nothing
                            now.putTable(table(6, 10));
                            assertThat(now.load().tables()).containsKey(6L);
                        });
    }

    /**
     * A server's listener calls into the server while the apply holds the state machine; the
     * server's other threads read the registrations meanwhile (a replica manager under its own
     * lock, which the listener waits for). Such a read must not wait for the apply: it deadlocked a
     * wiped server in the soak.
     */
    @Test
    void otherThreadsReadServerRegistrationsWhileAnApplyRuns() throws Exception {
        startCluster();
        int leader = awaitLeader();
        ServerRegistration registered = new ServerRegistration(leader + 1, "h:9123", "h:8080", 7);
        peers[leader].putServer(registered);
        Map<Integer, Map<Integer, ServerRegistration>> seen = new ConcurrentHashMap<>();
        Set<Integer> waited = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < 3; i++) {
            RaftMetadataStore peer = peers[i];
            int index = i;
            peer.setListener(
                    new MetadataListener() {
                        @Override
                        public void onReset(StoredState state) {}

                        @Override
                        public void onTableChanged(long tableId, Optional<AppliedTable> table) {
                            CompletableFuture<Map<Integer, ServerRegistration>> read =
                                    CompletableFuture.supplyAsync(peer::servers);
                            try {
                                seen.put(index, read.get(5, TimeUnit.SECONDS));
                            } catch (TimeoutException e) {
                                waited.add(index);
                            } catch (InterruptedException | ExecutionException e) {
                                throw new IllegalStateException(e);
                            }
                        }
                    });
        }
        peers[leader].putTable(table(1, 10));
        await().atMost(WAIT).until(() -> seen.size() + waited.size() == 3);
        assertThat(waited).as("peers whose other threads waited for the apply").isEmpty();
        assertThat(seen.values()).allSatisfy(m -> assertThat(m).containsKey(leader + 1));
    }

    @Test
    void aLeaderCutOffFromTheMajorityStepsDownAndItsWritesFailInBoundedTime() throws IOException {
        startCluster();
        int leader = awaitLeader();
        RaftMetadataStore l = peers[leader];
        l.putTable(table(1, 10));
        for (int i = 0; i < 3; i++) {
            if (i != leader) {
                stop(i);
            }
        }
        // a write right after the cut: it cannot commit; it must fail, not hang
        long start = System.nanoTime();
        assertThatThrownBy(() -> l.putTable(table(2, 10)))
                .isInstanceOfAny(RetriableException.class, FencedException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .isLessThan(REQUEST_TIMEOUT.plusSeconds(2));

        // Ratis's leader steps down after 2x the election timeout without a majority
        await().atMost(ELECTION.multipliedBy(2).plusSeconds(5)).until(() -> !l.isLeader());
        await().atMost(WAIT)
                .until(() -> events.get(leader).stream().anyMatch(e -> e.startsWith("not-leader")));
        start = System.nanoTime();
        assertThatThrownBy(() -> l.startIncarnation())
                .isInstanceOfAny(RetriableException.class, NotCoordinatorException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .isLessThan(REQUEST_TIMEOUT.plusSeconds(2));
    }

    @Test
    void restartedServersRecoverAndAWipedServerCatchesUpBySnapshot() throws IOException {
        // small snapshots and log segments, so that snapshots are taken and the log purged
        snapshotThreshold = 10;
        startCluster();
        int leader = awaitLeader();
        RaftMetadataStore l = peers[leader];
        l.putDatabase(new DatabaseInfo("db", null, 1));
        // ~4 KB entries: a 64 KB segment holds about 16
        for (long id = 1; id <= 60; id++) {
            l.putTable(table(id, 4000));
            if (id % 3 == 0) {
                assertThat(l.putTieringRecord(record(id, id * 10))).isTrue();
            }
        }
        long incarnation = l.startIncarnation();
        l.putServer(new ServerRegistration(leader + 1, "h:9123", "", 3));
        StoredState before = l.load();
        assertThat(before.servers()).hasSize(1);
        long lastIndex = l.lastLogIndex();
        assertThat(lastIndex).isGreaterThan(60);
        RaftMetadataStore wrote = l;
        await().atMost(WAIT).until(() -> wrote.appliedIndex() == lastIndex);

        for (int i = 0; i < 3; i++) {
            stop(i);
        }
        for (int i = 0; i < 3; i++) {
            start(i);
        }
        leader = awaitLeader();
        l = peers[leader];
        assertThat(l.load()).isEqualTo(before);
        // each restarted server's log still ends past what it held, and it applies that far again
        // (LocalBuckets waits for this before it deletes a moved-away copy)
        for (RaftMetadataStore p : peers) {
            assertThat(p.lastLogIndex()).isGreaterThanOrEqualTo(lastIndex);
            await().atMost(WAIT).until(() -> p.appliedIndex() >= lastIndex);
        }
        assertThat(snapshotFiles(leader)).isNotEmpty();

        int wiped = (leader + 1) % 3;
        stop(wiped);
        DurableFiles.deleteRecursively(dir.resolve("server-" + (wiped + 1)));
        for (long id = 61; id <= 120; id++) {
            l.putTable(table(id, 4000));
        }
        RaftMetadataStore current = l;
        // the entries the wiped server lacks are gone from the leader's log: only a snapshot helps
        await().atMost(WAIT).until(() -> current.logStartIndex() > 1);
        StoredState after = l.load();
        assertThat(after.incarnation()).isEqualTo(incarnation);

        start(wiped);
        RaftMetadataStore rejoined = peers[wiped];
        FollowedTables followed = follow(wiped);
        // empty unless the snapshot was installed before the listener was set (then it was told
        // everything at once): only a snapshot can bring the purged entries
        boolean installedAfterSet = followed.tables.isEmpty();
        await().atMost(WAIT).until(() -> rejoined.localState().equals(after));
        assertThat(snapshotFiles(wiped)).as("installed from the leader").isNotEmpty();
        assertThat(rejoined.load()).isEqualTo(after);
        // the installed snapshot replaced the image: the listener was told the whole of it again
        await().atMost(WAIT).until(() -> followed.tables.equals(after.tables().keySet()));
        if (installedAfterSet) {
            assertThat(followed.resets.get()).isGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void aFollowerWipedWhileTheClusterIsIdleHasTheLeadershipMovedAndCatchesUp() throws IOException {
        startCluster();
        int leader = awaitLeader();
        RaftMetadataStore l = peers[leader];
        l.putDatabase(new DatabaseInfo("db", null, 1));
        for (long id = 1; id <= 5; id++) {
            l.putTable(table(id, 100));
        }
        StoredState state = l.load();
        int wiped = (leader + 1) % 3;
        await().atMost(WAIT).until(() -> peers[wiped].localState().equals(state));

        // wiped and back: the leader still counts it as caught up and answers it with heartbeats
        // only (RATIS-2523), for ever. The wiped server asks it to hand the leadership to the
        // third voter, whose fresh view of it sends it everything
        stop(wiped);
        DurableFiles.deleteRecursively(dir.resolve("server-" + (wiped + 1)));
        start(wiped);
        RaftMetadataStore rejoined = peers[wiped];
        await().atMost(WAIT).until(() -> rejoined.localState().equals(state));
        int third = 3 - leader - wiped;
        assertThat(awaitLeader()).as("the leadership moved to the third voter").isEqualTo(third);
    }

    private List<Path> snapshotFiles(int i) throws IOException {
        Path root = dir.resolve("server-" + (i + 1));
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.getFileName().toString().matches("snapshot\\.\\d+_\\d+"))
                    .collect(Collectors.toList());
        }
    }
}
