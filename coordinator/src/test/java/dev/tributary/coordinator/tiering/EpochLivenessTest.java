package dev.tributary.coordinator.tiering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.coordinator.CoordinatorOptions;
import dev.tributary.coordinator.TieringHarness;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.tiering.api.Attempt;
import dev.tributary.tiering.api.RoundPlan;
import dev.tributary.tiering.api.RoundReport;
import dev.tributary.tiering.api.TableAck;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class EpochLivenessTest {
    private final TieringHarness h = new TieringHarness();

    @Test
    @DisplayName("T17 every entry into Pending bumps the epoch (timer, failure, force-finish)")
    void t17BumpOnEveryPendingEntry() {
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        h.advance(Duration.ofMinutes(1));
        long e1 = h.epoch(t);
        h.writeAll(t, 5);
        RoundPlan p = h.request("job");
        assertThat(p.epoch()).isEqualTo(e1);
        h.heartbeat(
                "job",
                List.of(),
                List.of(RoundReport.failed(t.tableId(), p.epoch(), "boom")),
                false);
        assertThat(h.epoch(t)).isEqualTo(e1); // Failed: no bump yet
        h.advance(h.config.backoffBase());
        long e2 = h.epoch(t);
        assertThat(e2).isEqualTo(e1 + 1);
        RoundPlan p2 = h.request("job");
        h.commit("job", p2, TieringHarness.fullEnds(p2), true).join();
        assertThat(h.epoch(t)).isEqualTo(e2 + 1);
    }

    @Test
    @DisplayName("T17 epochs are durable and strictly increase across coordinator restarts")
    void t17EpochsSurviveRestart() {
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        h.advance(Duration.ofMinutes(1));
        h.writeAll(t, 5);
        RoundPlan p = h.request("job");
        h.commitAll("job", p).join();
        h.advance(Duration.ofMinutes(1));
        h.writeAll(t, 1);
        RoundPlan before = h.request("job");
        for (int i = 0; i < 3; i++) {
            h.restart();
            h.advance(Duration.ofMinutes(1));
            long e = h.epoch(t);
            assertThat(e).isGreaterThan(before.epoch());
            assertThat(h.tiering().record(t.tableId()).orElseThrow().epoch()).isEqualTo(p.epoch());
            h.writeAll(t, 1);
            RoundPlan next = h.request("job");
            assertThat(next.epoch()).isEqualTo(e).isGreaterThan(before.epoch());
            before = next;
        }
    }

    @Test
    @DisplayName(
            "T18 defaults detect a dead job within 10 s; the table goes Tiering -> Failed -> Pending with a new epoch")
    void t18DeadJobDetectedWithin10s() {
        assertThat(CoordinatorOptions.HEARTBEAT_TIMEOUT.defaultValue().toMillis() * 5 / 4)
                .isLessThanOrEqualTo(10_000);
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        h.advance(Duration.ofMinutes(1));
        h.writeAll(t, 5);
        RoundPlan p = h.request("job");
        h.assertState(t, TieringState.TIERING);
        // The job dies now: never heartbeats again.
        long failedAt = -1;
        for (int ms = 0; ms <= 10_000; ms += 100) {
            h.advanceMillis(100);
            if (h.state(t) != TieringState.TIERING) {
                failedAt = ms + 100;
                break;
            }
        }
        assertThat(failedAt).isBetween(8_000L, 10_000L);
        h.assertState(t, TieringState.FAILED);
        h.advance(h.config.backoffBase());
        h.assertState(t, TieringState.PENDING);
        assertThat(h.epoch(t)).isGreaterThan(p.epoch());
        var st = h.tiering().tableStatus(t.tableId()).orElseThrow();
        assertThat(st.totalFailures()).isEqualTo(1);
        assertThat(st.lastFailure()).contains("no heartbeat");
    }

    @Test
    @DisplayName("T18 heartbeats keep a long round alive; a stale epoch gets a typed FENCED answer")
    void t18HeartbeatsRenewAndFence() {
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        h.advance(Duration.ofMinutes(1));
        h.writeAll(t, 5);
        RoundPlan p = h.request("job");
        for (int i = 0; i < 60; i++) {
            h.advance(h.config.heartbeatInterval());
            var r =
                    h.heartbeat(
                            "job", List.of(new Attempt(t.tableId(), p.epoch())), List.of(), false);
            assertThat(r.acks())
                    .singleElement()
                    .satisfies(a -> assertThat(a.status()).isEqualTo(TableAck.Status.OK));
        }
        h.assertState(t, TieringState.TIERING);
        var stale =
                h.heartbeat(
                        "job", List.of(new Attempt(t.tableId(), p.epoch() - 1)), List.of(), false);
        assertThat(stale.acks().get(0).fenced()).isTrue();
        assertThat(stale.acks().get(0).message()).contains("stale");
        var unknown = h.heartbeat("job", List.of(new Attempt(999, 1)), List.of(), false);
        assertThat(unknown.acks().get(0).fenced()).isTrue();
        // A failure report with a stale epoch is fenced and changes nothing.
        var rep =
                h.heartbeat(
                        "job",
                        List.of(),
                        List.of(RoundReport.failed(t.tableId(), p.epoch() + 5, "x")),
                        false);
        assertThat(rep.acks().get(0).fenced()).isTrue();
        h.assertState(t, TieringState.TIERING);
    }

    @Test
    @DisplayName(
            "T44 a job registers with its parallelism; the status reports it (0 when not given), a"
                    + " re-registration replaces it, a negative one is refused")
    void t44JobParallelismInStatus() {
        h.tiering().registerJob("wide", null, 16);
        h.tiering().registerJob("unknown", "etl", 0);
        assertThat(h.tiering().status().jobs())
                .extracting(j -> j.jobId() + "/" + j.group() + "/" + j.parallelism())
                .containsExactly("unknown/etl/0", "wide/default/16");
        h.tiering().registerJob("wide", null, 4);
        assertThat(h.tiering().status().jobs().get(1).parallelism()).isEqualTo(4);
        assertThatThrownBy(() -> h.tiering().registerJob("bad", null, -1))
                .isInstanceOf(dev.tributary.common.exception.InvalidInputException.class)
                .hasMessageContaining("parallelism");
        // the planner simulates one reader per unit: a parallelism from the network is bounded
        h.tiering().registerJob("widest", null, 32_768);
        assertThatThrownBy(() -> h.tiering().registerJob("huge", null, 32_769))
                .isInstanceOf(dev.tributary.common.exception.InvalidInputException.class)
                .hasMessageContaining("parallelism must be 0 (unknown) to 32768");
        assertThat(h.tiering().status().jobs()).extracting(j -> j.jobId()).doesNotContain("huge");
    }

    @Test
    @DisplayName(
            "T18 a job that registers again (restarted) loses its rounds: they are failed and fenced")
    void t18JobRestartFencesItsRounds() {
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        h.advance(Duration.ofMinutes(1));
        h.writeAll(t, 5);
        RoundPlan p = h.request("job");
        h.tiering().registerJob("job", null, 0);
        h.assertState(t, TieringState.FAILED);
        assertThat(h.commitAll("job", p)).isCompletedExceptionally();
        assertThat(h.lake.commits()).isEmpty();
    }

    @Test
    @DisplayName(
            "T12 after a restart a table tiered long ago is pending at once; one tiered recently waits only the rest")
    void t12RestartKeepsCadence() {
        TableInfo old = h.lakeTable("old", 1, Duration.ofMinutes(5));
        TableInfo recent = h.lakeTable("recent", 1, Duration.ofMinutes(5));
        h.advance(Duration.ofMinutes(5));
        h.writeAll(old, 3);
        h.writeAll(recent, 3);
        RoundPlan po = h.request("job");
        h.commitAll("job", po).join(); // old tiered at minute 5
        h.advance(Duration.ofMinutes(3));
        RoundPlan pr = h.request("job");
        h.commitAll("job", pr).join(); // recent tiered at minute 8
        long lastRecent = h.tiering().record(recent.tableId()).orElseThrow().lastTieredTimeMillis();
        h.advance(Duration.ofMinutes(4)); // minute 12: old was due at 10 (pending already)
        h.restart();
        h.advance(Duration.ZERO);
        h.assertState(old, TieringState.PENDING);
        h.assertState(recent, TieringState.SCHEDULED);
        assertThat(h.tiering().record(recent.tableId()).orElseThrow().lastTieredTimeMillis())
                .isEqualTo(lastRecent);
        h.advance(Duration.ofMinutes(1).minusMillis(1)); // due at minute 13 = 8 + 5
        h.assertState(recent, TieringState.SCHEDULED);
        h.advanceMillis(1);
        h.assertState(recent, TieringState.PENDING);
    }

    @Test
    @DisplayName(
            "T12 a table that was Tiering when the coordinator crashed resumes as Pending with a new epoch")
    void t12TieringResumesPending() {
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        h.advance(Duration.ofMinutes(1));
        h.writeAll(t, 5);
        RoundPlan p = h.request("job");
        h.restart();
        h.advance(Duration.ZERO);
        h.assertState(t, TieringState.PENDING);
        assertThat(h.epoch(t)).isGreaterThan(p.epoch());
        // The old attempt can neither heartbeat nor commit.
        var r = h.heartbeat("job", List.of(new Attempt(t.tableId(), p.epoch())), List.of(), false);
        assertThat(r.acks().get(0).fenced()).isTrue();
        assertThat(h.commitAll("job", p)).isCompletedExceptionally();
    }
}
