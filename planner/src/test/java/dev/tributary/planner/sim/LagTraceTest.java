package dev.tributary.planner.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class LagTraceTest {

    @Test
    @DisplayName("T44 a sawtooth's mean, p99 and peak are exact, not sampled")
    void sawtooth() {
        // commits every 10 s, each bringing the oldest untiered record to 2 s before the commit:
        // the lag rises from 2 s to 12 s, then drops
        LagTrace t = new LagTrace(0, 0);
        for (long c = 10_000; c <= 100_000; c += 10_000) {
            t.change(c, c - 2_000);
        }
        t.end(100_000);
        LagTrace.Figures f = t.figures(10_000, 100_000);
        assertThat(f.peakMillis()).isEqualTo(12_000);
        assertThat(f.avgMillis()).isEqualTo(7_000.0);
        // the top 1% of a uniform 2..12 s ramp starts at 11.9 s
        assertThat(f.p99Millis()).isEqualTo(11_900);
    }

    @Test
    @DisplayName(
            "T44 no lag while the oldest untiered record is not written yet; a window cuts segments")
    void futureOldestAndWindow() {
        LagTrace t = new LagTrace(0, 5_000);
        t.change(20_000, 30_000);
        t.end(40_000);
        // 0..5 s: 0; 5..20 s: 0..15 s; 20..30 s: 0; 30..40 s: 0..10 s
        LagTrace.Figures all = t.figures(0, 40_000);
        assertThat(all.peakMillis()).isEqualTo(15_000);
        assertThat(all.avgMillis()).isEqualTo((15.0 * 15_000 / 2 + 10.0 * 10_000 / 2) / 40);
        LagTrace.Figures late = t.figures(30_000, 40_000);
        assertThat(late.peakMillis()).isEqualTo(10_000);
        assertThat(late.p99Millis()).isEqualTo(9_900);
    }

    @Test
    @DisplayName("T44 a table nobody writes to has no lag")
    void nothingWritten() {
        LagTrace t = new LagTrace(0, Long.MAX_VALUE);
        t.end(60_000);
        LagTrace.Figures f = t.figures(0, 60_000);
        assertThat(f.peakMillis()).isZero();
        assertThat(f.p99Millis()).isZero();
        assertThat(f.avgMillis()).isZero();
    }
}
