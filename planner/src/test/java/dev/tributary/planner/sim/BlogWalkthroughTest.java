package dev.tributary.planner.sim;

import static dev.tributary.planner.sim.SimulationResult.EventKind.COMMITTED;
import static dev.tributary.planner.sim.SimulationResult.EventKind.GRANTED;
import static dev.tributary.planner.sim.SimulationResult.EventKind.PENDING;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.coordinator.tiering.QueuePolicy;
import dev.tributary.planner.report.PlanText;
import dev.tributary.planner.workload.Workload;
import dev.tributary.planner.yaml.WorkloadFile;
import dev.tributary.tiering.api.CommitOrder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The seed's "A Concrete Walkthrough" in what-if mode, read from the shipped {@code
 * conf/plan/seed-walkthrough.yaml}: clicks (16 buckets, 1 min, 30 s rounds), orders (8, 2 min, 90
 * s), customers (PK, 12, 5 min, 100 s first round then 20 s) on one job of 16 readers, all pending
 * at T=0. The coordinator deciding every step is the production code.
 */
class BlogWalkthroughTest {
    static final Path WALKTHROUGH = Paths.get("..", "conf", "plan", "seed-walkthrough.yaml");
    static final Path ARCHIVES = Paths.get("..", "conf", "plan", "seed-walkthrough-archives.yaml");

    static WorkloadFile.Parsed read(Path file) throws IOException {
        return WorkloadFile.parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    }

    static SimulationResult run(Path file, QueuePolicy policy, CommitOrder order)
            throws IOException {
        WorkloadFile.Parsed p = read(file);
        Workload w =
                new Workload(
                        policy,
                        order,
                        p.workload().createdBefore(),
                        p.workload().jobs(),
                        p.workload().tables());
        return new TieringSimulator(w, p.settings()).run();
    }

    private static List<Long> seconds(
            SimulationResult r, String table, SimulationResult.EventKind kind) {
        return r.eventsOf(table, kind).stream().map(e -> e.atMillis() / 1000).toList();
    }

    @Test
    @DisplayName(
            "T44 T3 T10 T25 seed walkthrough (what-if, fifo): clicks commits at 30 s, orders at 120"
                    + " s, customers at 220 s; clicks round 2 pending at 90 s waits for readers")
    void timelineUnderFifo() throws IOException {
        WorkloadFile.Parsed p = read(WALKTHROUGH);
        TieringSimulator sim = new TieringSimulator(p.workload(), p.settings());
        // all three passed their first freshness wait, queued in ascending freshness order
        assertThat(sim.pendingOrderNow()).containsExactly("clicks", "orders", "customers");
        SimulationResult r = sim.run();
        // clicks at 0 on all 16 readers; at 30 clicks commits, orders (8 readers) and customers
        // (the other 8 readers; 4 of its 12 splits wait) are granted at once: read pipelining
        assertThat(seconds(r, "clicks", GRANTED)).startsWith(0L, 120L);
        assertThat(seconds(r, "orders", GRANTED)).startsWith(30L);
        assertThat(seconds(r, "customers", GRANTED)).startsWith(30L);
        // the seed's commits: clicks 30, orders 120 (30 + 90), customers 220 (8 snapshot splits
        // 30..130, the 4 others 120..220 on readers orders freed)
        assertThat(seconds(r, "clicks", COMMITTED)).startsWith(30L);
        assertThat(seconds(r, "orders", COMMITTED)).startsWith(120L);
        assertThat(seconds(r, "customers", COMMITTED)).startsWith(220L);
        // clicks round 2 is due at 90 (freshness after its commit, T10) and waits in the queue
        // until readers free up at 120
        assertThat(seconds(r, "clicks", PENDING)).startsWith(-240L, 90L);
        assertThat(r.eventsOf("clicks", GRANTED).get(1).waitedMillis()).isEqualTo(30_000);
        // completion order (T25): clicks round 2 (4 splits from 120, 8 from 130, 4 from 150)
        // commits at 180, before customers, which was granted earlier
        assertThat(seconds(r, "clicks", COMMITTED)).startsWith(30L, 180L);
        assertThat(
                        r.events().stream()
                                .filter(e -> e.kind() == COMMITTED)
                                .map(SimulationResult.Event::table)
                                .limit(4))
                .containsExactly("clicks", "orders", "clicks", "customers");
        System.out.println(PlanText.timeline(r, 300_000));
    }

    @Test
    @DisplayName(
            "T44 T25 seed walkthrough with commit order assignment: clicks round 2 commits behind"
                    + " customers, at 220 s, as the seed tells it")
    void clicksRoundTwoWaitsBehindThemWithAssignmentOrder() throws IOException {
        SimulationResult r = run(WALKTHROUGH, QueuePolicy.FIFO, CommitOrder.ASSIGNMENT);
        assertThat(seconds(r, "clicks", COMMITTED)).startsWith(30L, 220L);
        assertThat(seconds(r, "orders", COMMITTED)).startsWith(120L);
        assertThat(seconds(r, "customers", COMMITTED)).startsWith(220L);
        assertThat(
                        r.events().stream()
                                .filter(e -> e.kind() == COMMITTED)
                                .map(SimulationResult.Event::table)
                                .limit(4))
                .containsExactly("clicks", "orders", "customers", "clicks");
    }

    @Test
    @DisplayName(
            "T44 T16 T3 seed walkthrough under deadline: the same timeline, because push hands each"
                    + " table to an idle reader the moment it is pending and nothing queues")
    void deadlineChangesNothingWhenNothingQueues() throws IOException {
        SimulationResult fifo = run(WALKTHROUGH, QueuePolicy.FIFO, CommitOrder.COMPLETION);
        SimulationResult deadline = run(WALKTHROUGH, QueuePolicy.DEADLINE, CommitOrder.COMPLETION);
        assertThat(deadline.events()).isEqualTo(fifo.events());
        assertThat(fifo.tables())
                .allSatisfy(t -> assertThat(t.queueWaitMaxMillis()).isLessThanOrEqualTo(30_000));
    }

    @Test
    @DisplayName(
            "T44 T16 seed walkthrough plus 16 archive tables of 30 min: under fifo clicks waits"
                    + " behind them for minutes, deadline serves it first")
    void deadlineShowsTheDifferenceWhenTablesQueue() throws IOException {
        SimulationResult fifo = run(ARCHIVES, QueuePolicy.FIFO, CommitOrder.COMPLETION);
        SimulationResult deadline = run(ARCHIVES, QueuePolicy.DEADLINE, CommitOrder.COMPLETION);
        var fifoClicks = fifo.table("clicks");
        var deadlineClicks = deadline.table("clicks");
        System.out.println(
                "fifo:\n" + PlanText.tables(fifo) + "deadline:\n" + PlanText.tables(deadline));
        // fifo: clicks becomes pending behind archive tables and waits for them
        assertThat(fifoClicks.queueWaitMaxMillis()).isGreaterThanOrEqualTo(120_000);
        // deadline: clicks' deadline (pending + 1 min) comes before any archive table's (+30 min)
        assertThat(deadlineClicks.queueWaitMaxMillis()).isLessThanOrEqualTo(60_000);
        assertThat(deadlineClicks.queueWaitAvgMillis() * 3)
                .isLessThan(fifoClicks.queueWaitAvgMillis());
        assertThat(deadlineClicks.lagP99Millis()).isLessThan(fifoClicks.lagP99Millis() / 2);
        assertThat(deadline.table("orders").lagP99Millis())
                .isLessThan(fifo.table("orders").lagP99Millis());
        // and the archive tables, with 30 min of slack, still meet their targets
        assertThat(deadline.tables().stream().filter(t -> t.name().startsWith("archive")))
                .allMatch(SimulationResult.TableOutcome::met);
    }
}
