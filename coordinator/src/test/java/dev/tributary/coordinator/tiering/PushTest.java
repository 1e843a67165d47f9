package dev.tributary.coordinator.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.coordinator.TieringHarness;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.tiering.api.HeartbeatRequest;
import dev.tributary.tiering.api.HeartbeatResult;
import dev.tributary.tiering.api.RoundPlan;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PushTest {
    private final TieringHarness h = new TieringHarness();

    private CompletableFuture<HeartbeatResult> waitForTable(String job, long millis) {
        CompletableFuture<HeartbeatResult> f =
                h.tiering()
                        .heartbeatAsync(
                                new HeartbeatRequest(
                                        job, null, List.of(), List.of(), true, millis));
        h.loop.runReady();
        return f;
    }

    @Test
    @DisplayName(
            "T3 an idle job's table request is answered the moment a table becomes pending (push, no poll interval)")
    void pushedWhenPending() {
        TableInfo t = h.lakeTable("t", 2, Duration.ofSeconds(61));
        h.writeAll(t, 5);
        h.advance(Duration.ofSeconds(60));
        CompletableFuture<HeartbeatResult> f = waitForTable("job", 2_000);
        assertThat(f).isNotDone();
        h.advanceMillis(999);
        assertThat(f).isNotDone();
        h.advanceMillis(1); // t becomes pending now
        assertThat(f).isCompleted();
        RoundPlan p = f.join().plan();
        assertThat(p.tableId()).isEqualTo(t.tableId());
        h.assertState(t, TieringState.TIERING);
        var job = h.tiering().status().jobs().get(0);
        assertThat(job.tableRequests()).isEqualTo(1);
        assertThat(job.pushedPlans()).as("delivered to the waiting request").isEqualTo(1);
        assertThat(job.waitingForTable()).isFalse();
        assertThat(h.tiering().tableStatus(t.tableId()).orElseThrow().recentRounds()).isEmpty();
    }

    @Test
    @DisplayName(
            "T3 a waiting request ends empty after its wait (capped at the heartbeat interval); a newer request releases it")
    void waitEndsAndRelease() {
        CompletableFuture<HeartbeatResult> f = waitForTable("job", 60_000);
        h.advance(h.config.heartbeatInterval().minusMillis(1));
        assertThat(f).isNotDone();
        h.advanceMillis(1);
        assertThat(f.join().plan()).isNull();

        CompletableFuture<HeartbeatResult> first = waitForTable("job", 1_000);
        CompletableFuture<HeartbeatResult> second = waitForTable("job", 1_000);
        assertThat(first).isCompleted();
        assertThat(first.join().plan()).isNull();
        assertThat(second).isNotDone();
        // A table of another group does not wake it.
        TableInfo gold =
                h.table(
                        "gold",
                        1,
                        Duration.ofMillis(500),
                        false,
                        java.util.Map.of("table.datalake.tiering.group", "gold"));
        h.writeAll(gold, 1);
        h.advanceMillis(600);
        assertThat(second).isNotDone();
        h.assertState(gold, TieringState.PENDING);
        h.advanceMillis(400);
        assertThat(second).isCompleted();
        assertThat(second.join().plan()).isNull();
        h.assertState(gold, TieringState.PENDING);
    }

    @Test
    @DisplayName("T3 a plain heartbeat of the job leaves its parked table request waiting")
    void aPlainHeartbeatDoesNotReleaseTheParkedRequest() {
        TableInfo t = h.lakeTable("t", 1, Duration.ofSeconds(61));
        h.writeAll(t, 5);
        h.advance(Duration.ofSeconds(60));
        CompletableFuture<HeartbeatResult> f = waitForTable("job", 2_000);
        h.heartbeat("job", List.of(), List.of(), false);
        assertThat(f).as("the job's periodic heartbeat must not end the long poll").isNotDone();
        h.advanceMillis(1_000);
        assertThat(f.join().plan().tableId()).isEqualTo(t.tableId());
    }
}
