package dev.tributary.coordinator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.Coordinator;
import dev.tributary.coordinator.FakeBuckets;
import dev.tributary.coordinator.FakeLake;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.BucketReplicas;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.store.FileMetadataStore;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Liveness through the real coordinator: its event loop, a file metadata store and a manual clock
 * (the loop's expiry timer runs when the clock passed it and the loop wakes for a call).
 */
class CoordinatorLivenessTest {
    @TempDir Path dir;
    private final ManualClock clock = new ManualClock(1_000_000);

    private Coordinator start(FileMetadataStore store) {
        return Coordinator.start(
                new Configuration(), clock, store, new FakeBuckets(), new FakeLake());
    }

    @Test
    void serversRegisteredAfterStartHeartbeatAndExpire() {
        try (FileMetadataStore store = FileMetadataStore.open(dir);
                Coordinator c = start(store)) {
            assertThat(beat(c, 1, "i1")).isEqualTo(HeartbeatOutcome.UNKNOWN_SERVER);
            store.putServer(new ServerRegistration(1, "h:1", "", 0));
            store.putServer(new ServerRegistration(2, "h:2", "", 0));
            assertThat(beat(c, 1, "i1")).isEqualTo(HeartbeatOutcome.ACCEPTED);
            assertThat(c.serverLiveness().join())
                    .extracting(ServerLivenessView::state)
                    .containsExactly(LivenessState.ALIVE, LivenessState.UNKNOWN);

            clock.advanceMillis(7_000);
            assertThat(beat(c, 1, "i1")).isEqualTo(HeartbeatOutcome.ACCEPTED);
            // 8 s after server 2 was first tracked (the default timeout), plus the check interval
            clock.advanceMillis(3_000);
            assertThat(c.serverLiveness().join())
                    .extracting(ServerLivenessView::state)
                    .containsExactly(LivenessState.ALIVE, LivenessState.EXPIRED);
            assertThat(c.serverLiveness().join().get(0).millisSinceHeartbeat()).contains(3_000L);
            // what status pages read without the loop: the same, as of the last check
            assertThat(c.publishedServerLiveness()).isEqualTo(c.serverLiveness().join());
            clock.advanceMillis(500);
            assertThat(c.publishedServerLiveness().get(0).millisSinceHeartbeat())
                    .as("counted to now between two checks")
                    .contains(3_500L);
            // T49: new buckets skip the expired server
            c.createDatabase("db", null, true).join();
            TableInfo t =
                    c.createTable(
                                    TablePath.of("db", "t"),
                                    TableDescriptor.builder(
                                                    Schema.newBuilder()
                                                            .column("id", DataTypes.INT())
                                                            .build())
                                            .bucketCount(3)
                                            .property("table.replication.factor", "1")
                                            .build(),
                                    false)
                            .join();
            assertThat(
                            c.bucketAssignment(t.tableId(), TableBucket.NO_PARTITION)
                                    .orElseThrow()
                                    .servers())
                    .containsExactly(1, 1, 1);

            assertThat(beat(c, 1, "i2")).isEqualTo(HeartbeatOutcome.ACCEPTED);
            assertThat(beat(c, 1, "i1")).isEqualTo(HeartbeatOutcome.FENCED);
        }
    }

    @Test
    @DisplayName(
            "T51 a stopping server's replicated buckets get in-sync followers as leaders at once;"
                    + " it cannot rejoin an in-sync set until a new instance heartbeats")
    void aStoppingServerHandsItsLeadershipOverAtOnce() {
        try (FileMetadataStore store = FileMetadataStore.open(dir);
                Coordinator c = start(store)) {
            TableInfo t = replicatedTableOnThreeServers(store, c);
            BucketAssignment before =
                    c.bucketAssignment(t.tableId(), TableBucket.NO_PARTITION).orElseThrow();
            // leadership rotates at creation: each server leads one bucket
            assertThat(before.servers()).containsExactlyInAnyOrder(1, 2, 3);
            int stopping = before.replicasOf(0).leader();

            assertThat(c.serverStopping(stopping, "someone else").join().outcome())
                    .isEqualTo(HeartbeatOutcome.FENCED);
            CoordinatorLiveness.StopAnswer answer =
                    c.serverStopping(stopping, "i" + stopping).join();
            assertThat(answer.outcome()).isEqualTo(HeartbeatOutcome.ACCEPTED);
            assertThat(answer.leadersMoved()).isEqualTo(1);
            // no time passed: the stop, not a heartbeat timeout, moved the leader
            BucketAssignment after =
                    c.bucketAssignment(t.tableId(), TableBucket.NO_PARTITION).orElseThrow();
            for (int b = 0; b < 3; b++) {
                BucketReplicas r = after.replicasOf(b);
                assertThat(r.isr()).hasSize(2).doesNotContain(stopping);
                assertThat(r.leader()).isNotEqualTo(stopping);
                assertThat(r.leaderEpoch())
                        .isEqualTo(before.replicasOf(b).leader() == stopping ? 1 : 0);
            }
            assertThat(beat(c, stopping, "i" + stopping)).isEqualTo(HeartbeatOutcome.FENCED);

            // its fetchers may still run while it drains: its bucket's new leader cannot add it
            BucketReplicas moved = after.replicasOf(0);
            TableBucket bucket0 = new TableBucket(t.tableId(), 0);
            assertThat(
                            c.alterInSyncReplicas(
                                    moved.leader(), bucket0, moved.leaderEpoch(), List.of(1, 2, 3)))
                    .failsWithin(Duration.ofSeconds(10))
                    .withThrowableThat()
                    .havingRootCause()
                    .isInstanceOf(InvalidInputException.class)
                    .withMessageContaining("server " + stopping + " cannot rejoin")
                    .withMessageContaining("expired");
            // a follower does not write in-sync sets
            int follower =
                    moved.isr().stream()
                            .filter(id -> id != moved.leader())
                            .findFirst()
                            .orElseThrow();
            assertThat(c.alterInSyncReplicas(follower, bucket0, moved.leaderEpoch(), moved.isr()))
                    .failsWithin(Duration.ofSeconds(10))
                    .withThrowableThat()
                    .havingRootCause()
                    .isInstanceOf(FencedException.class);

            // restarted, it heartbeats as a new instance and may rejoin
            assertThat(beat(c, stopping, "restarted")).isEqualTo(HeartbeatOutcome.ACCEPTED);
            assertThat(
                            c.alterInSyncReplicas(
                                            moved.leader(),
                                            bucket0,
                                            moved.leaderEpoch(),
                                            List.of(1, 2, 3))
                                    .join()
                                    .isr())
                    .containsExactlyInAnyOrder(1, 2, 3);
        }
    }

    @Test
    void aTimeoutNotAboveTheIntervalIsRefusedAtStart() {
        try (FileMetadataStore store = FileMetadataStore.open(dir)) {
            Configuration conf =
                    new Configuration(
                            Map.of(
                                    "cluster.server.heartbeat-interval", "3s",
                                    "cluster.server.heartbeat-timeout", "2s"));
            assertThatThrownBy(
                            () ->
                                    Coordinator.start(
                                            conf, clock, store, new FakeBuckets(), new FakeLake()))
                    .isInstanceOf(InvalidConfigException.class)
                    .hasMessageContaining("cluster.server.heartbeat-interval");
        }
    }

    /** A heartbeat without bucket changes; its outcome. */
    @Test
    @DisplayName(
            "T51 a late server whose address refuses connections expires before the heartbeat"
                    + " timeout, its buckets led by in-sync followers; one that accepts stays alive")
    void aLateServerWhosePortRefusesExpiresBeforeTheTimeout() throws Exception {
        try (FileMetadataStore store = FileMetadataStore.open(dir);
                ServerSocket listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                Coordinator c = start(store)) {
            int closedPort;
            try (ServerSocket gone = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
                closedPort = gone.getLocalPort();
            }
            store.putServer(
                    new ServerRegistration(1, "127.0.0.1:" + listening.getLocalPort(), "", 0));
            store.putServer(new ServerRegistration(2, "127.0.0.1:" + closedPort, "", 0));
            store.putServer(
                    new ServerRegistration(3, "127.0.0.1:" + listening.getLocalPort(), "", 0));
            for (int id = 1; id <= 3; id++) {
                assertThat(beat(c, id, "i" + id)).isEqualTo(HeartbeatOutcome.ACCEPTED);
            }
            TableInfo t = replicatedTable(c);
            // every heartbeat is 1.5 intervals late (3 s of the default 2 s), far from the 8 s
            // timeout: each server's address is probed
            clock.advanceMillis(3_000);
            // the probes answer on their own thread; each call wakes the loop to take them
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (c.serverLiveness().join().get(1).state() != LivenessState.EXPIRED
                    && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(c.serverLiveness().join())
                    .extracting(ServerLivenessView::state)
                    .containsExactly(
                            LivenessState.ALIVE, LivenessState.EXPIRED, LivenessState.ALIVE);
            BucketAssignment after =
                    c.bucketAssignment(t.tableId(), TableBucket.NO_PARTITION).orElseThrow();
            for (int b = 0; b < 3; b++) {
                assertThat(after.replicasOf(b).leader()).isNotEqualTo(2);
                assertThat(after.replicasOf(b).isr()).containsExactlyInAnyOrder(1, 3);
            }
            // not fenced: should it live after all, its next heartbeat counts
            assertThat(beat(c, 2, "i2")).isEqualTo(HeartbeatOutcome.ACCEPTED);
        }
    }

    @Test
    @DisplayName(
            "T51 a bucket's leadership goes back to its first replica at the next preferred-leader"
                    + " check once that replica is in sync again, never while it drains")
    void thePreferredLeaderLeadsAgainOnceBackInSync() {
        try (FileMetadataStore store = FileMetadataStore.open(dir);
                Coordinator c = start(store)) {
            TableInfo t = replicatedTableOnThreeServers(store, c);
            TableBucket bucket0 = new TableBucket(t.tableId(), 0);
            int preferred = replicas(c, t, 0).replicas().get(0);
            assertThat(replicas(c, t, 0).leader()).isEqualTo(preferred);
            c.serverStopping(preferred, "i" + preferred).join();
            BucketReplicas failedOver = replicas(c, t, 0);
            assertThat(failedOver.leader()).isNotEqualTo(preferred);

            // back and in sync, but draining: it leads nothing
            assertThat(beat(c, preferred, "restarted")).isEqualTo(HeartbeatOutcome.ACCEPTED);
            c.alterInSyncReplicas(
                            failedOver.leader(),
                            bucket0,
                            failedOver.leaderEpoch(),
                            List.of(1, 2, 3))
                    .join();
            store.setDraining(preferred, true);
            aliveFor(c, Duration.ofSeconds(40), preferred, "restarted");
            assertThat(replicas(c, t, 0).leader()).isEqualTo(failedOver.leader());

            // undrained: the next check (every 30 s by default) hands the leadership back
            store.setDraining(preferred, false);
            aliveFor(c, Duration.ofSeconds(40), preferred, "restarted");
            BucketReplicas back = replicas(c, t, 0);
            assertThat(back.leader()).isEqualTo(preferred);
            assertThat(back.leaderEpoch()).isEqualTo(failedOver.leaderEpoch() + 1);
            assertThat(back.isr()).containsExactly(failedOver.replicas().toArray(Integer[]::new));
            // the other buckets, led by their first replicas all along, are as they were
            for (int b = 1; b < 3; b++) {
                assertThat(replicas(c, t, b).leaderEpoch()).isZero();
            }
        }
    }

    private static BucketReplicas replicas(Coordinator c, TableInfo t, int bucket) {
        return c.bucketAssignment(t.tableId(), TableBucket.NO_PARTITION)
                .orElseThrow()
                .replicasOf(bucket);
    }

    /** Advances the clock by {@code d} in 2 s steps, every server heartbeating at each. */
    private void aliveFor(Coordinator c, Duration d, int restarted, String restartedInstance) {
        for (long ms = 0; ms < d.toMillis(); ms += 2_000) {
            clock.advanceMillis(2_000);
            for (int id = 1; id <= 3; id++) {
                String instance = id == restarted ? restartedInstance : "i" + id;
                assertThat(beat(c, id, instance)).isEqualTo(HeartbeatOutcome.ACCEPTED);
            }
        }
    }

    /** Servers 1 to 3 registered and heartbeating, and a {@link #replicatedTable} on them. */
    private static TableInfo replicatedTableOnThreeServers(FileMetadataStore store, Coordinator c) {
        for (int id = 1; id <= 3; id++) {
            store.putServer(new ServerRegistration(id, "h:" + id, "", 0));
            assertThat(beat(c, id, "i" + id)).isEqualTo(HeartbeatOutcome.ACCEPTED);
        }
        return replicatedTable(c);
    }

    /** A table of three buckets with three replicas each. */
    private static TableInfo replicatedTable(Coordinator c) {
        c.createDatabase("db", null, true).join();
        return c.createTable(
                        TablePath.of("db", "replicated"),
                        TableDescriptor.builder(
                                        Schema.newBuilder().column("id", DataTypes.INT()).build())
                                .bucketCount(3)
                                .property("table.replication.factor", "3")
                                .build(),
                        false)
                .join();
    }

    private static HeartbeatOutcome beat(Coordinator c, int serverId, String instanceId) {
        return c.serverHeartbeat(serverId, instanceId, BucketReport.delta(List.of()))
                .join()
                .outcome();
    }
}
