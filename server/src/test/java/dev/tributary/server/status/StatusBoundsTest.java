package dev.tributary.server.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.coordinator.status.RoundSummary;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What bounds the status a page of many tables shows (issue 26). */
class StatusBoundsTest {
    private static final ObjectMapper JSON =
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Test
    void t28ARowIsTheSameSizeAfterOneRoundAndAfterThousands() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        List<TableStatusView.RoundView> rounds = new ArrayList<>();
        int sizeAfterOne = -1;
        for (long r = 1; r <= 5_000; r++) {
            RoundSummary s =
                    new RoundSummary(
                            1_000_000 + r,
                            r,
                            "job-1",
                            12,
                            1_700_000_000_000L + r * 1000,
                            1_700_000_000_500L + r * 1000,
                            RoundSummary.Outcome.COMMITTED,
                            100_000 + random.nextInt(900_000),
                            1_000_000,
                            2,
                            100_000,
                            1_000_000,
                            false,
                            1_000 + r,
                            null);
            rounds.add(TableStatusView.RoundView.of(s));
            if (rounds.size() > 50) {
                rounds.remove(0);
            }
            TableRow row = TableRow.of(view(rounds, "x".repeat(10_000)));
            int size = JSON.writeValueAsString(row).length();
            if (r == 1) {
                sizeAfterOne = size;
            }
            // the numbers' digits may differ a little, the shape never: no per-round list
            assertThat(size).as("seed %d, round %d", seed, r).isLessThan(sizeAfterOne + 64);
        }
        TableRow row = TableRow.of(view(rounds, "x".repeat(10_000)));
        assertThat(row.lastFailure()).hasSize(TableRow.MAX_MESSAGE_CHARS);
        assertThat(JSON.writeValueAsString(row)).doesNotContain("\"rounds\"");
    }

    @Test
    void t43TheOverviewGetsAtMostItsPointsPerTableAndKeepsTheSawtoothsPeaks() {
        LagHistory h = new LagHistory(Duration.ofSeconds(5), Duration.ofHours(1));
        long t0 = 1_000_000;
        // 720 samples: a sawtooth of 60 s teeth (lag grows 5 s per sample, drops to 0)
        for (int i = 0; i < 720; i++) {
            long now = t0 + i * 5_000L;
            long lag = (i % 12) * 5_000L;
            h.record(
                    now,
                    List.of(
                            StatusViews.table(1, "db.a", 60_000, lag, lag),
                            StatusViews.table(2, "db.b", 60_000, 0, 0),
                            StatusViews.table(3, "db.c", 60_000, 0, 0)));
        }
        long end = t0 + 719 * 5_000L;
        List<LagHistoryView.Series> page =
                h.between(-1, end, Set.of(1L, 2L), ConsoleSnapshots.OVERVIEW_POINTS);
        assertThat(page).extracting(LagHistoryView.Series::table).containsExactly("db.a", "db.b");
        LagHistoryView.Series a = page.get(0);
        assertThat(a.timeMillis()).hasSize(ConsoleSnapshots.OVERVIEW_POINTS);
        for (int i = 1; i < a.timeMillis().length; i++) {
            assertThat(a.timeMillis()[i]).isGreaterThan(a.timeMillis()[i - 1]);
        }
        // every run of 6 samples holds a tooth's top half or its peak: the peak 55 s is kept
        assertThat(a.lagMillis()).contains(55_000L);
        assertThat(java.util.Arrays.stream(a.lagMillis()).max().getAsLong()).isEqualTo(55_000);
        // below the cap every sample is sent as it is (the table page, increments)
        assertThat(h.between(end - 50_000, end, Set.of(1L), 120).get(0).timeMillis()).hasSize(10);
        assertThat(h.between(-1, end, Set.of(1L), Integer.MAX_VALUE).get(0).timeMillis())
                .hasSize(720);
    }

    @Test
    void t43APageRequestIsCheckedAndCutsTheList() {
        assertThat(PageRequest.of(Map.of(), "/api/tiering")).isEqualTo(PageRequest.FIRST);
        PageRequest p = PageRequest.of(Map.of("offset", "990", "limit", "20"), "/api/tiering");
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            all.add(i);
        }
        assertThat(p.of(all)).hasSize(10).startsWith(990);
        assertThat(new PageRequest(Integer.MAX_VALUE, 200).of(all)).isEmpty();
        for (String bad : List.of("-1", "x", "201", "0", "99999999999")) {
            assertThatThrownBy(() -> PageRequest.of(Map.of("limit", bad), "/api/tiering"))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("limit='" + bad + "' for /api/tiering");
        }
        assertThatThrownBy(() -> PageRequest.of(Map.of("offset", "-5"), "/api/console"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("offset='-5'");
    }

    private static TableStatusView view(List<TableStatusView.RoundView> rounds, String failure) {
        return new TableStatusView(
                7,
                "db.t",
                "default",
                "FAILED",
                1,
                -1,
                null,
                60_000,
                1,
                5,
                rounds.get(rounds.size() - 1),
                rounds,
                0L,
                0L,
                null,
                1,
                1,
                failure,
                -1,
                Map.of(0, 10L),
                Map.of(0, 10L),
                List.of(),
                List.of(),
                null,
                null,
                null);
    }
}
