package dev.tributary.coordinator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.common.time.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The liveness tracker's rules, driven by a manual clock. */
class ServerLivenessTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(8);
    private final ManualClock clock = new ManualClock(1_000_000);
    private final ServerLiveness liveness = new ServerLiveness(TIMEOUT);

    private long now() {
        return clock.nanoTime() / 1_000_000;
    }

    private List<Integer> alive() {
        return liveness.views(now()).stream()
                .filter(v -> v.state() == LivenessState.ALIVE)
                .map(ServerLivenessView::serverId)
                .toList();
    }

    @Test
    void unregisteredServerIsUnknown() {
        liveness.syncRegistered(List.of(1), now());
        assertThat(liveness.heartbeat(2, "a", now())).isEqualTo(HeartbeatOutcome.UNKNOWN_SERVER);
        assertThat(liveness.tracks(2)).isFalse();
    }

    @Test
    void expiresExactlyAtTheTimeoutNotBefore() {
        liveness.syncRegistered(List.of(1, 2), now());
        assertThat(liveness.view(1, now()).orElseThrow().state()).isEqualTo(LivenessState.UNKNOWN);
        assertThat(liveness.heartbeat(1, "a", now())).isEqualTo(HeartbeatOutcome.ACCEPTED);
        assertThat(alive()).containsExactly(1);

        clock.advanceMillis(TIMEOUT.toMillis() - 1);
        assertThat(liveness.expire(now())).isEmpty();
        assertThat(liveness.view(1, now()).orElseThrow())
                .isEqualTo(
                        new ServerLivenessView(
                                1,
                                LivenessState.ALIVE,
                                Optional.of("a"),
                                Optional.of(TIMEOUT.toMillis() - 1)));

        clock.advanceMillis(1);
        // server 2 never heartbeat: its timeout counts from when it was first tracked
        assertThat(liveness.expire(now())).containsExactly(1, 2);
        // reported once per expiry
        clock.advanceMillis(5_000);
        assertThat(liveness.expire(now())).isEmpty();
        assertThat(alive()).isEmpty();
        assertThat(liveness.view(2, now()).orElseThrow().instanceId()).isEmpty();
    }

    @Test
    void heartbeatsKeepAServerAliveAndAnExpiredOneComesBack() {
        liveness.syncRegistered(List.of(1), now());
        for (int i = 0; i < 10; i++) {
            assertThat(liveness.heartbeat(1, "a", now())).isEqualTo(HeartbeatOutcome.ACCEPTED);
            clock.advanceMillis(TIMEOUT.toMillis() - 1);
            assertThat(liveness.expire(now())).isEmpty();
        }
        clock.advanceMillis(1);
        assertThat(liveness.expire(now())).containsExactly(1);
        assertThat(liveness.heartbeat(1, "a", now())).isEqualTo(HeartbeatOutcome.ACCEPTED);
        assertThat(alive()).containsExactly(1);
        assertThat(liveness.view(1, now()).orElseThrow().millisSinceHeartbeat()).contains(0L);
    }

    @Test
    void aRestartedInstanceReplacesTheOldOneWhichIsFenced() {
        liveness.syncRegistered(List.of(3), now());
        assertThat(liveness.heartbeat(3, "old", now())).isEqualTo(HeartbeatOutcome.ACCEPTED);
        clock.advanceMillis(1_000);
        assertThat(liveness.heartbeat(3, "new", now())).isEqualTo(HeartbeatOutcome.ACCEPTED);
        assertThat(liveness.view(3, now()).orElseThrow().instanceId()).contains("new");
        clock.advanceMillis(1_000);
        assertThat(liveness.heartbeat(3, "old", now())).isEqualTo(HeartbeatOutcome.FENCED);
        // the fenced heartbeat did not refresh the server: expiry counts from "new"'s heartbeat
        clock.advanceMillis(TIMEOUT.toMillis() - 1_000);
        assertThat(liveness.expire(now())).containsExactly(3);
        // still fenced after the server expired, while the current instance comes back
        assertThat(liveness.heartbeat(3, "old", now())).isEqualTo(HeartbeatOutcome.FENCED);
        assertThat(liveness.heartbeat(3, "new", now())).isEqualTo(HeartbeatOutcome.ACCEPTED);
    }

    @Test
    void aStoppingInstanceExpiresAtOnceAndItsLateBeatsAreFencedUntilARestart() {
        liveness.syncRegistered(List.of(1, 2), now());
        assertThat(liveness.retire(3, "x")).isEqualTo(HeartbeatOutcome.UNKNOWN_SERVER);
        liveness.heartbeat(1, "first", now());
        liveness.heartbeat(2, "other", now());

        // not one of server 1's instances: refused, nothing changes
        assertThat(liveness.retire(1, "stranger")).isEqualTo(HeartbeatOutcome.FENCED);
        assertThat(alive()).containsExactly(1, 2);

        assertThat(liveness.retire(1, "first")).isEqualTo(HeartbeatOutcome.ACCEPTED);
        assertThat(liveness.view(1, now()).orElseThrow().state()).isEqualTo(LivenessState.EXPIRED);
        assertThat(alive()).containsExactly(2);
        // expired once: the periodic check does not report it again
        clock.advanceMillis(TIMEOUT.toMillis());
        liveness.heartbeat(2, "other", now());
        assertThat(liveness.expire(now())).isEmpty();
        // a beat of the stopping instance still in flight, or a second stop, changes nothing
        assertThat(liveness.heartbeat(1, "first", now())).isEqualTo(HeartbeatOutcome.FENCED);
        assertThat(liveness.retire(1, "first")).isEqualTo(HeartbeatOutcome.FENCED);
        assertThat(alive()).containsExactly(2);

        // the restart is a new instance: alive at its first beat
        assertThat(liveness.heartbeat(1, "second", now())).isEqualTo(HeartbeatOutcome.ACCEPTED);
        assertThat(alive()).containsExactly(1, 2);
        assertThat(liveness.heartbeat(1, "first", now())).isEqualTo(HeartbeatOutcome.FENCED);

        // a server that never heartbeat under this coordinator can stop too
        liveness.syncRegistered(List.of(1, 2, 4), now());
        assertThat(liveness.retire(4, "only")).isEqualTo(HeartbeatOutcome.ACCEPTED);
        assertThat(liveness.view(4, now()).orElseThrow().state()).isEqualTo(LivenessState.EXPIRED);
    }

    @Test
    void replacedInstancesAreRememberedBoundedly() {
        long seed = System.nanoTime();
        System.out.println("ServerLivenessTest seed: " + seed);
        Random random = new Random(seed);
        liveness.syncRegistered(List.of(1), now());
        int restarts = ServerLiveness.REPLACED_INSTANCES_KEPT + 1 + random.nextInt(10);
        String[] instances = new String[restarts];
        for (int i = 0; i < restarts; i++) {
            instances[i] = new UUID(random.nextLong(), random.nextLong()).toString();
            assertThat(liveness.heartbeat(1, instances[i], now()))
                    .isEqualTo(HeartbeatOutcome.ACCEPTED);
        }
        // the latest REPLACED_INSTANCES_KEPT replaced ones are fenced
        for (int i = restarts - 1 - ServerLiveness.REPLACED_INSTANCES_KEPT; i < restarts - 1; i++) {
            assertThat(liveness.heartbeat(1, instances[i], now()))
                    .as("instance %d of %d", i, restarts)
                    .isEqualTo(HeartbeatOutcome.FENCED);
        }
        assertThat(liveness.view(1, now()).orElseThrow().instanceId())
                .contains(instances[restarts - 1]);
    }

    @Test
    void unregisteredServersAreDropped() {
        liveness.syncRegistered(List.of(1, 2), now());
        liveness.heartbeat(2, "a", now());
        liveness.syncRegistered(List.of(1), now());
        assertThat(liveness.heartbeat(2, "a", now())).isEqualTo(HeartbeatOutcome.UNKNOWN_SERVER);
        assertThat(liveness.views(now()))
                .extracting(ServerLivenessView::serverId)
                .containsExactly(1);
        // re-syncing a tracked server keeps its state
        liveness.heartbeat(1, "a", now());
        liveness.syncRegistered(List.of(1), now());
        assertThat(alive()).containsExactly(1);
    }

    @Test
    void illegalTransitionsThrow() {
        assertThat(LivenessState.UNKNOWN.moveTo(LivenessState.ALIVE))
                .isEqualTo(LivenessState.ALIVE);
        assertThat(LivenessState.UNKNOWN.moveTo(LivenessState.EXPIRED))
                .isEqualTo(LivenessState.EXPIRED);
        assertThat(LivenessState.ALIVE.moveTo(LivenessState.EXPIRED))
                .isEqualTo(LivenessState.EXPIRED);
        assertThat(LivenessState.EXPIRED.moveTo(LivenessState.ALIVE))
                .isEqualTo(LivenessState.ALIVE);
        for (LivenessState from : LivenessState.values()) {
            assertThatThrownBy(() -> from.moveTo(LivenessState.UNKNOWN))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(from + " -> UNKNOWN");
            assertThatThrownBy(() -> from.moveTo(from)).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aLateServerExpiresUnreachableOnlyIfNothingChangedSinceItWasFoundLate() {
        ServerLiveness l = new ServerLiveness(Duration.ofSeconds(8));
        l.syncRegistered(List.of(1, 2, 3), 0);
        l.heartbeat(1, "a", 1_000);
        l.heartbeat(2, "b", 2_000);
        // server 3 never heartbeat: UNKNOWN, not probed
        assertThat(l.late(4_000, 3_000)).containsExactly(new ServerLiveness.Late(1, "a", 1_000));
        assertThat(l.late(5_000, 3_000))
                .containsExactly(
                        new ServerLiveness.Late(1, "a", 1_000),
                        new ServerLiveness.Late(2, "b", 2_000));
        ServerLiveness.Late one = l.late(5_000, 3_000).get(0);
        ServerLiveness.Late two = l.late(5_000, 3_000).get(1);

        // server 2 heartbeat while its probe ran: the refusal is stale
        l.heartbeat(2, "b", 5_500);
        assertThat(l.expireUnreachable(two)).isFalse();
        assertThat(l.view(2, 5_500).orElseThrow().state()).isEqualTo(LivenessState.ALIVE);

        assertThat(l.expireUnreachable(one)).isTrue();
        assertThat(l.view(1, 5_500).orElseThrow().state()).isEqualTo(LivenessState.EXPIRED);
        assertThat(l.expireUnreachable(one)).as("once").isFalse();
        assertThat(l.late(9_000, 3_000))
                .extracting(ServerLiveness.Late::serverId)
                .containsExactly(2);
        // not fenced: the same instance's next heartbeat counts
        assertThat(l.heartbeat(1, "a", 6_000)).isEqualTo(HeartbeatOutcome.ACCEPTED);
        assertThat(l.view(1, 6_000).orElseThrow().state()).isEqualTo(LivenessState.ALIVE);

        // a restart (new instance) since the probe began makes the refusal stale too
        ServerLiveness.Late before = l.late(9_500, 3_000).get(0);
        l.heartbeat(before.serverId(), "restarted", 9_600);
        ServerLiveness.Late sameTime =
                new ServerLiveness.Late(before.serverId(), before.instanceId(), 9_600);
        assertThat(l.expireUnreachable(sameTime)).isFalse();
    }

    @Test
    void optionsDefaultAndValidateTogether() {
        Configuration defaults = new Configuration(Map.of());
        assertThat(ServerLivenessOptions.from(defaults))
                .isEqualTo(
                        new ServerLivenessOptions.Settings(
                                Duration.ofSeconds(2), Duration.ofSeconds(8), true));

        Configuration bad =
                new Configuration(
                        Map.of(
                                "cluster.server.heartbeat-interval", "5s",
                                "cluster.server.heartbeat-timeout", "5s"));
        assertThatThrownBy(() -> ServerLivenessOptions.validate(bad))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("cluster.server.heartbeat-interval")
                .hasMessageContaining("cluster.server.heartbeat-timeout");
        assertThatThrownBy(
                        () ->
                                ServerLivenessOptions.validate(
                                        new Configuration(
                                                Map.of("cluster.server.heartbeat-timeout", "1ms"))))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("cluster.server.heartbeat-timeout");
    }
}
