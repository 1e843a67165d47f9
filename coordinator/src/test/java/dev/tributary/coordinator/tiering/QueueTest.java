package dev.tributary.coordinator.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.coordinator.TieringHarness;
import dev.tributary.coordinator.metadata.TableChange;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.tiering.api.Attempt;
import dev.tributary.tiering.api.RoundPlan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class QueueTest {

    /** slow (30 min freshness) becomes pending first, fast (1 min) later. */
    private static List<Long> handOutOrder(QueuePolicy policy) {
        TieringHarness h = new TieringHarness(TieringConfig.defaults().withQueuePolicy(policy));
        TableInfo slow = h.lakeTable("slow", 1, Duration.ofMinutes(30));
        h.advance(Duration.ofMinutes(29));
        TableInfo fast = h.lakeTable("fast", 1, Duration.ofMinutes(1));
        h.advance(Duration.ofMinutes(1));
        h.writeAll(slow, 1);
        h.writeAll(fast, 1);
        h.assertState(slow, TieringState.PENDING);
        h.assertState(fast, TieringState.PENDING);
        List<Long> order = new ArrayList<>(h.tiering().pendingOrder(null));
        // A request hands out exactly one table, the head.
        RoundPlan first = h.request("job");
        assertThat(first.tableId()).isEqualTo(order.get(0));
        assertThat(h.tiering().pendingOrder(null)).containsExactly(order.get(1));
        assertThat(h.state(first.tableId() == slow.tableId() ? slow : fast))
                .isEqualTo(TieringState.TIERING);
        return order;
    }

    @Test
    @DisplayName("T16 fifo hands out tables in arrival order")
    void t16Fifo() {
        List<Long> order = handOutOrder(QueuePolicy.FIFO);
        assertThat(order).containsExactly(1L, 2L);
    }

    @Test
    @DisplayName(
            "T16 deadline hands out the earliest pendingSince + freshness first (1-min table before 30-min table)")
    void t16Deadline() {
        List<Long> order = handOutOrder(QueuePolicy.DEADLINE);
        assertThat(order).containsExactly(2L, 1L);
    }

    @Test
    @DisplayName(
            "T16 a request never returns a table that is not Pending, and each pending table only once")
    void t16OnlyPending() {
        TieringHarness h = new TieringHarness();
        List<TableInfo> ts = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ts.add(h.lakeTable("t" + i, 1, Duration.ofMinutes(1 + i)));
            h.writeAll(ts.get(i), 1);
        }
        h.advance(Duration.ofMinutes(2));
        Set<Long> got = new HashSet<>();
        RoundPlan p;
        while ((p = h.request("job")) != null) {
            assertThat(got.add(p.tableId())).isTrue();
        }
        assertThat(got).hasSize(2); // only the 1-min and 2-min tables are pending yet
        for (TableInfo t : ts) {
            if (!got.contains(t.tableId())) {
                h.assertState(t, TieringState.SCHEDULED);
            }
        }
    }

    @Test
    @DisplayName("T16 ALTER freshness re-orders a pending table under the deadline policy")
    void t16AlterReorders() {
        TieringHarness h =
                new TieringHarness(TieringConfig.defaults().withQueuePolicy(QueuePolicy.DEADLINE));
        TableInfo a = h.lakeTable("a", 1, Duration.ofMinutes(5));
        TableInfo b = h.lakeTable("b", 1, Duration.ofMinutes(5));
        h.advance(Duration.ofMinutes(5));
        assertThat(h.tiering().pendingOrder(null)).containsExactly(a.tableId(), b.tableId());
        h.core.alterTable(b.path(), List.of(TableChange.set("table.datalake.freshness", "1min")));
        assertThat(h.tiering().pendingOrder(null)).containsExactly(b.tableId(), a.tableId());
    }

    @Test
    @DisplayName(
            "T26 a job of group G only gets tables of G; tables without a group go to default-group jobs")
    void t26Groups() {
        TieringHarness h = new TieringHarness();
        TableInfo g =
                h.table(
                        "g",
                        1,
                        Duration.ofMinutes(1),
                        false,
                        Map.of("table.datalake.tiering.group", "gold"));
        TableInfo d = h.lakeTable("d", 1, Duration.ofMinutes(1));
        h.writeAll(g, 1);
        h.writeAll(d, 1);
        h.advance(Duration.ofMinutes(1));
        assertThat(h.request("silver-job", "silver")).isNull();
        RoundPlan gp = h.request("gold-job", "gold");
        assertThat(gp.tableId()).isEqualTo(g.tableId());
        assertThat(h.request("gold-job", "gold")).isNull();
        RoundPlan dp = h.request("default-job", null);
        assertThat(dp.tableId()).isEqualTo(d.tableId());
        // A table is in at most one job: the other job's attempt is fenced.
        var r =
                h.heartbeat(
                        "default-job",
                        List.of(new Attempt(g.tableId(), gp.epoch())),
                        List.of(),
                        false);
        assertThat(r.acks().get(0).fenced()).isTrue();
        var status = h.tiering().status();
        assertThat(status.jobs())
                .anySatisfy(
                        j -> {
                            assertThat(j.jobId()).isEqualTo("gold-job");
                            assertThat(j.tables()).containsExactly(g.tableId());
                        });
    }

    @Test
    @DisplayName("T26 moving a pending table to another group moves it to that group's queue")
    void t26AlterGroup() {
        TieringHarness h = new TieringHarness();
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        h.writeAll(t, 1);
        h.advance(Duration.ofMinutes(1));
        h.core.alterTable(
                t.path(), List.of(TableChange.set("table.datalake.tiering.group", "blue")));
        assertThat(h.request("default-job")).isNull();
        assertThat(h.request("blue-job", "blue").tableId()).isEqualTo(t.tableId());
    }

    @Test
    @DisplayName("T28 status lists state, epoch, queue position and pending since")
    void t28Status() {
        TieringHarness h =
                new TieringHarness(TieringConfig.defaults().withQueuePolicy(QueuePolicy.FIFO));
        TableInfo a = h.lakeTable("a", 1, Duration.ofMinutes(1));
        TableInfo b = h.lakeTable("b", 1, Duration.ofMinutes(1));
        h.advance(Duration.ofMinutes(1));
        var st = h.tiering().status();
        assertThat(st.pendingCount()).isEqualTo(2);
        var sa = st.tables().get(0);
        var sb = st.tables().get(1);
        assertThat(sa.path()).isEqualTo(a.path());
        assertThat(sa.queuePosition()).isZero();
        assertThat(sb.queuePosition()).isEqualTo(1);
        assertThat(sa.state()).isEqualTo(TieringState.PENDING);
        assertThat(sa.pendingSinceMillis()).isEqualTo(h.clock.currentTimeMillis());
        assertThat(sb.epoch()).isEqualTo(h.epoch(b));
        assertThat(sa.freshness()).isEqualTo(Duration.ofMinutes(1));
    }
}
