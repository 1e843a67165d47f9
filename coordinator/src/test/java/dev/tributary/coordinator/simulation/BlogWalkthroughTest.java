package dev.tributary.coordinator.simulation;

import static dev.tributary.coordinator.simulation.SimResult.Kind.ASSIGNED;
import static dev.tributary.coordinator.simulation.SimResult.Kind.COMMITTED;
import static dev.tributary.coordinator.simulation.SimResult.Kind.PENDING;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.coordinator.tiering.QueuePolicy;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The blog's "A Concrete Walkthrough": clicks (16 buckets, 1 min, ~30 s rounds), orders (8, 2 min,
 * ~90 s), customers (PK, 12, 5 min, 100 s first round then 20 s), one job of parallelism 16. The
 * tables are created 5 minutes before the job starts, so at T=0 all three are pending.
 */
class BlogWalkthroughTest {

    static List<SimTable> tables() {
        return SimTable.blogWalkthrough();
    }

    static SimConfig config(QueuePolicy policy) {
        return new SimConfig(
                policy,
                16,
                1,
                Duration.ZERO,
                Duration.ofMinutes(5),
                Duration.ofMinutes(10),
                Duration.ZERO,
                42);
    }

    private static List<Long> seconds(SimResult r, String table, SimResult.Kind kind) {
        return r.eventsOf(table, kind).stream().map(e -> e.atMillis() / 1000).toList();
    }

    /** What both policies share up to T=240 s, derived by hand from the blog's numbers. */
    private static void assertCommonPrefix(SimResult r) {
        // clicks at 0 (all 16 readers); at 30 clicks commits; orders (8 readers) and customers
        // (the other 8 readers, 4 splits queued) are assigned at once: read pipelining.
        assertThat(seconds(r, "clicks", ASSIGNED)).startsWith(0L, 120L);
        assertThat(seconds(r, "orders", ASSIGNED)).startsWith(30L);
        assertThat(seconds(r, "customers", ASSIGNED)).startsWith(30L);
        // Commits: clicks 30, orders 120 (30 + 90), clicks round 2 at 180 (4 splits from 120,
        // 8 from 130, 4 from 150), customers 220 (8 splits 30..130, 4 splits 120..220).
        assertThat(seconds(r, "clicks", COMMITTED)).startsWith(30L, 180L);
        assertThat(seconds(r, "orders", COMMITTED)).startsWith(120L);
        assertThat(seconds(r, "customers", COMMITTED)).startsWith(220L);
        // Pending: freshness after each commit (T10); clicks waits in the queue from 90 to 120.
        assertThat(seconds(r, "clicks", PENDING)).startsWith(0L, 90L, 240L);
        assertThat(seconds(r, "orders", PENDING)).startsWith(0L, 240L);
        assertThat(seconds(r, "customers", PENDING)).startsWith(0L, 520L);
        // T25: clicks (assigned after customers) commits before it: completion order.
        assertThat(
                        r.events().stream()
                                .filter(e -> e.kind() == COMMITTED)
                                .map(e -> e.table())
                                .limit(4))
                .containsExactly("clicks", "orders", "clicks", "customers");
    }

    @Test
    @DisplayName(
            "T10 T16 blog walkthrough under fifo: queue order and pending times; at T=240 orders is served first")
    void fifo() {
        TieringSimulator sim = new TieringSimulator(config(QueuePolicy.FIFO), tables());
        assertThat(sim.pendingOrderNow()).containsExactly("clicks", "orders", "customers");
        SimResult r = sim.run();
        assertCommonPrefix(r);
        // At 240 orders (timer set at 120) and clicks (set at 180) become pending together;
        // fifo serves arrival order: orders takes 8 readers, clicks the other 8 at once.
        assertThat(seconds(r, "orders", ASSIGNED)).startsWith(30L, 240L);
        assertThat(seconds(r, "clicks", ASSIGNED)).startsWith(0L, 120L, 240L);
        // clicks round 3 waits for readers: 8 splits 240..270, 8 more 270..300.
        assertThat(seconds(r, "clicks", COMMITTED)).startsWith(30L, 180L, 300L);
        assertThat(seconds(r, "orders", COMMITTED)).startsWith(120L, 330L);
    }

    @Test
    @DisplayName(
            "T10 T16 blog walkthrough under deadline: same start; at T=240 clicks (deadline 300) goes before orders (360)")
    void deadline() {
        TieringSimulator sim = new TieringSimulator(config(QueuePolicy.DEADLINE), tables());
        assertThat(sim.pendingOrderNow()).containsExactly("clicks", "orders", "customers");
        SimResult r = sim.run();
        assertCommonPrefix(r);
        // clicks takes all 16 readers at 240 and commits at 270; orders starts at 270.
        assertThat(seconds(r, "clicks", ASSIGNED)).startsWith(0L, 120L, 240L);
        assertThat(seconds(r, "clicks", COMMITTED)).startsWith(30L, 180L, 270L);
        assertThat(seconds(r, "orders", ASSIGNED)).startsWith(30L, 270L);
        assertThat(seconds(r, "orders", COMMITTED)).startsWith(120L, 360L);
        System.out.println(r.formatTable());
    }
}
