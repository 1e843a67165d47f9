package dev.tributary.coordinator.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.coordinator.TieringHarness;
import dev.tributary.coordinator.metadata.TableChange;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.tiering.api.BucketPlan;
import dev.tributary.tiering.api.RoundPlan;
import dev.tributary.tiering.api.RoundReport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SchedulingTest {
    private final TieringHarness h = new TieringHarness();

    @Test
    @DisplayName(
            "T11 a new lake table waits exactly one freshness interval: New -> Scheduled -> Pending")
    void t11NewTableWaitsOneInterval() {
        TableInfo t = h.lakeTable("t", 2, Duration.ofMinutes(1));
        h.assertState(t, TieringState.SCHEDULED);
        h.advanceMillis(59_999);
        h.assertState(t, TieringState.SCHEDULED);
        h.advanceMillis(1);
        h.assertState(t, TieringState.PENDING);
        assertThat(h.tiering().pendingOrder(null)).containsExactly(t.tableId());
    }

    @Test
    @DisplayName(
            "T11 switching table.datalake.enabled on waits one interval; off removes it from the queue")
    void t11EnableAndDisable() {
        TableInfo t =
                h.table(
                        "t",
                        1,
                        Duration.ofMinutes(2),
                        false,
                        Map.of("table.datalake.enabled", "false"));
        assertThat(h.state(t)).isNull();
        h.advance(Duration.ofMinutes(10));
        h.core.alterTable(t.path(), List.of(TableChange.set("table.datalake.enabled", "true")));
        h.assertState(t, TieringState.SCHEDULED);
        h.advance(Duration.ofMinutes(2).minusMillis(1));
        h.assertState(t, TieringState.SCHEDULED);
        h.advanceMillis(1);
        h.assertState(t, TieringState.PENDING);

        h.core.alterTable(t.path(), List.of(TableChange.set("table.datalake.enabled", "false")));
        assertThat(h.state(t)).isNull();
        assertThat(h.tiering().pendingOrder(null)).isEmpty();
        h.buckets.write(t.tableId(), 0, 5);
        assertThat(h.request("job")).isNull();
        h.advance(Duration.ofMinutes(10));
        assertThat(h.request("job")).isNull();
        assertThat(h.tiering().status().tables()).isEmpty();
    }

    @Test
    @DisplayName(
            "T10 the next round becomes pending freshness after the commit; start-to-start adds round and wait")
    void t10CadenceFromCommit() {
        TableInfo t = h.lakeTable("t", 2, Duration.ofMinutes(1));
        h.advance(Duration.ofMinutes(1));
        h.writeAll(t, 10);
        RoundPlan p = h.request("job");
        assertThat(p.tableId()).isEqualTo(t.tableId());
        h.advanceAlive(Duration.ofSeconds(30), "job"); // round duration
        h.commitAll("job", p).join();
        h.assertState(t, TieringState.SCHEDULED);
        h.advance(Duration.ofSeconds(60).minusMillis(1));
        h.assertState(t, TieringState.SCHEDULED);
        h.advanceMillis(1);
        h.assertState(t, TieringState.PENDING);
    }

    @Test
    @DisplayName("T10 ALTER freshness re-times a scheduled table from its last tiered time")
    void t10AlterFreshnessWhileScheduled() {
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(10));
        h.advance(Duration.ofMinutes(3));
        h.core.alterTable(t.path(), List.of(TableChange.set("table.datalake.freshness", "5min")));
        h.advance(Duration.ofMinutes(2).minusMillis(1));
        h.assertState(t, TieringState.SCHEDULED);
        h.advanceMillis(1);
        h.assertState(t, TieringState.PENDING);

        // Shrinking below the elapsed time makes it due at once.
        TableInfo u = h.lakeTable("u", 1, Duration.ofMinutes(10));
        h.advance(Duration.ofMinutes(4));
        h.core.alterTable(u.path(), List.of(TableChange.set("table.datalake.freshness", "1min")));
        h.advance(Duration.ZERO);
        h.assertState(u, TieringState.PENDING);
    }

    @Test
    @DisplayName(
            "T13 a force-finished commit goes Tiering -> Tiered -> Pending at once with a new epoch, not a failure")
    void t13ForceFinishedCommit() {
        TableInfo t = h.lakeTable("t", 2, Duration.ofMinutes(1));
        h.advance(Duration.ofMinutes(1));
        h.writeAll(t, 100);
        RoundPlan p = h.request("job");
        long epoch = p.epoch();
        h.advanceAlive(Duration.ofMinutes(1), "job");
        long snap = h.commit("job", p, Map.of(0, 40L, 1, 100L), true).join();
        h.assertState(t, TieringState.PENDING);
        assertThat(h.epoch(t)).isGreaterThan(epoch);
        var status = h.tiering().tableStatus(t.tableId()).orElseThrow();
        assertThat(status.consecutiveFailures()).isZero();
        assertThat(status.totalFailures()).isZero();
        assertThat(status.lastRound().forceFinished()).isTrue();
        assertThat(status.lastRound().lakeSnapshotId()).isEqualTo(snap);
        // The rest rolls into the next round, starting where the cut stopped.
        RoundPlan next = h.request("job");
        assertThat(next.buckets()).containsExactly(BucketPlan.log(0, 40, 100));
    }

    @Test
    @DisplayName(
            "T13 a force-finish report without a commit also re-queues at once, not as a failure")
    void t13ForceFinishReport() {
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        h.advance(Duration.ofMinutes(1));
        h.writeAll(t, 5);
        RoundPlan p = h.request("job");
        h.advanceAlive(Duration.ofMinutes(1), "job");
        var r =
                h.heartbeat(
                        "job",
                        List.of(),
                        List.of(RoundReport.forceFinished(t.tableId(), p.epoch())),
                        false);
        assertThat(r.acks()).allMatch(a -> !a.fenced());
        h.assertState(t, TieringState.PENDING);
        assertThat(h.epoch(t)).isGreaterThan(p.epoch());
        assertThat(h.tiering().tableStatus(t.tableId()).orElseThrow().totalFailures()).isZero();
    }

    @Test
    @DisplayName(
            "T27 a table with nothing new is not handed out, does not block the next table, and waits freshness again")
    void t27EmptyTableSkipped() {
        TableInfo empty = h.lakeTable("empty", 4, Duration.ofMinutes(1));
        TableInfo full = h.lakeTable("full", 2, Duration.ofMinutes(1));
        h.advance(Duration.ofMinutes(1));
        h.writeAll(full, 3);
        RoundPlan p = h.request("job");
        assertThat(p.tableId()).isEqualTo(full.tableId());
        h.assertState(empty, TieringState.SCHEDULED);
        assertThat(h.lake.snapshots(empty.tableId())).isEmpty();
        h.advance(Duration.ofMinutes(1).minusMillis(1));
        h.assertState(empty, TieringState.SCHEDULED);
        h.advanceMillis(1);
        h.assertState(empty, TieringState.PENDING);
    }

    @Test
    @DisplayName(
            "T27 a FINISHED report (nothing written) schedules the table after freshness without a snapshot")
    void t27FinishedReport() {
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        h.advance(Duration.ofMinutes(1));
        h.writeAll(t, 1);
        RoundPlan p = h.request("job");
        h.heartbeat("job", List.of(), List.of(RoundReport.finished(t.tableId(), p.epoch())), false);
        h.assertState(t, TieringState.SCHEDULED);
        assertThat(h.lake.commits()).isEmpty();
    }
}
