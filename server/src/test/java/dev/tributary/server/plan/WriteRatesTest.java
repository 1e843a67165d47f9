package dev.tributary.server.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tributary.server.status.TableStatusView;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class WriteRatesTest {
    static TableStatusView view(long id, long... ends) {
        Map<Integer, Long> e = new TreeMap<>();
        for (int b = 0; b < ends.length; b++) {
            e.put(b, ends[b]);
        }
        return new TableStatusView(
                id,
                "db.t" + id,
                "default",
                "SCHEDULED",
                1,
                -1,
                null,
                10_000,
                -1,
                -1,
                null,
                List.of(),
                0L,
                0L,
                null,
                0,
                0,
                null,
                -1,
                Map.of(),
                e,
                List.of(),
                List.of(),
                null,
                null,
                null);
    }

    @Test
    @DisplayName(
            "T44 a table's write rate is its buckets' end-offset growth over the window; the"
                    + " busiest bucket gives the skew")
    void rateAndSkew() {
        WriteRates r = new WriteRates(60_000);
        r.record(1_000, List.of(view(1, 0, 0, 0, 0)));
        assertThat(r.rate(1)).isEmpty();
        r.record(11_000, List.of(view(1, 1_000, 2_000, 3_000, 10_000)));
        WriteRates.Rate rate = r.rate(1).orElseThrow();
        assertThat(rate.recordsPerSecond()).containsExactly(100, 200, 300, 1_000);
        assertThat(rate.total()).isEqualTo(1_600);
        assertThat(rate.skew()).isCloseTo(2.5, within(1e-9));
        assertThat(rate.spanMillis()).isEqualTo(10_000);
    }

    @Test
    @DisplayName("T44 old samples leave the window; dropped tables and clock steps back reset")
    void windowAndResets() {
        WriteRates r = new WriteRates(10_000);
        for (long t = 0; t <= 60_000; t += 5_000) {
            // 100 records/s until 30 s, 1,000 after
            long end = t <= 30_000 ? t / 10 : 3_000 + (t - 30_000);
            r.record(t, List.of(view(1, end), view(2, t / 10)));
        }
        assertThat(r.rate(1).orElseThrow().total()).isCloseTo(1_000, within(1e-9));
        r.record(65_000, List.of(view(1, 40_000)));
        assertThat(r.rate(2)).isEmpty();
        r.record(50_000, List.of(view(1, 40_001)));
        assertThat(r.rate(1)).as("a clock step back starts the series again").isEmpty();
    }
}
