package dev.tributary.server.status;

import static dev.tributary.server.status.StatusViews.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.common.exception.NotFoundException;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LagHistoryTest {
    private static final Duration FIVE_S = Duration.ofSeconds(5);

    @Test
    void t28RecordsOneSeriesPerTableWithFreshnessAndStateOrderedByName() {
        LagHistory h = new LagHistory(FIVE_S, Duration.ofMinutes(1));
        h.record(1_000, List.of(table(2, "db.b", 60_000, 100, 10), table(1, "db.a", 30_000, 0, 0)));
        h.record(
                6_000, List.of(table(1, "db.a", 30_000, 5_000, 7), table(2, "db.b", 60_000, 0, 0)));

        LagHistoryView v = h.view();
        assertThat(v.intervalMillis()).isEqualTo(5_000);
        assertThat(v.retentionMillis()).isEqualTo(60_000);
        assertThat(v.lastSampleMillis()).isEqualTo(6_000);
        assertThat(v.tables())
                .extracting(LagHistoryView.Series::table)
                .containsExactly("db.a", "db.b");
        LagHistoryView.Series a = v.tables().get(0);
        assertThat(a.tableId()).isEqualTo(1);
        assertThat(a.freshnessMillis()).isEqualTo(30_000);
        assertThat(a.state()).isEqualTo("PENDING");
        assertThat(a.timeMillis()).containsExactly(1_000, 6_000);
        assertThat(a.lagMillis()).containsExactly(0, 5_000);
        assertThat(a.lagRecords()).containsExactly(0, 7);
        LagHistoryView.Series b = v.tables().get(1);
        assertThat(b.lagMillis()).containsExactly(100, 0);
        assertThat(b.lagRecords()).containsExactly(10, 0);
    }

    @Test
    void t28AnUnmeasuredLagLeavesAGapInsteadOfAZero() {
        LagHistory h = new LagHistory(FIVE_S, Duration.ofMinutes(1));
        h.record(0, List.of(table(1, "db.a", 30_000, 4_000, 40)));
        h.record(5_000, List.of(StatusViews.unmeasured(1, "db.a", "bucket 0 unreadable")));
        h.record(10_000, List.of(table(1, "db.a", 30_000, 9_000, 90)));

        LagHistoryView.Series a = h.view().tables().get(0);
        assertThat(a.timeMillis()).containsExactly(0, 10_000);
        assertThat(a.lagMillis()).containsExactly(4_000, 9_000);
    }

    @Test
    void t28FreshnessFollowsTheNewestSample() {
        LagHistory h = new LagHistory(FIVE_S, Duration.ofMinutes(1));
        h.record(0, List.of(table(1, "db.a", 30_000, 0, 0)));
        h.record(5_000, List.of(table(1, "db.a", 10_000, 0, 0)));
        assertThat(h.view().tables().get(0).freshnessMillis()).isEqualTo(10_000);
    }

    @Test
    void t28SamplesOlderThanTheRetentionAreDropped() {
        LagHistory h = new LagHistory(FIVE_S, Duration.ofSeconds(20));
        for (long t = 0; t <= 60_000; t += 5_000) {
            h.record(t, List.of(table(1, "db.a", 30_000, t, 1)));
        }
        assertThat(h.view().tables().get(0).timeMillis())
                .containsExactly(40_000, 45_000, 50_000, 55_000, 60_000);
    }

    @Test
    void t28ADroppedTableLosesItsSeries() {
        LagHistory h = new LagHistory(FIVE_S, Duration.ofMinutes(1));
        h.record(0, List.of(table(1, "db.a", 1, 0, 0), table(2, "db.b", 1, 0, 0)));
        h.record(5_000, List.of(table(2, "db.b", 1, 0, 0)));
        assertThat(h.tableCount()).isEqualTo(1);
        assertThat(h.view().tables())
                .extracting(LagHistoryView.Series::table)
                .containsExactly("db.b");

        // recreated under the same name: a new table id, a fresh series
        h.record(10_000, List.of(table(3, "db.a", 1, 0, 0), table(2, "db.b", 1, 0, 0)));
        LagHistoryView.Series a = h.view("db.a").tables().get(0);
        assertThat(a.tableId()).isEqualTo(3);
        assertThat(a.timeMillis()).containsExactly(10_000);
    }

    @Test
    void t28EachTableHoldsAtMostItsCapacityWhateverTheSpacing() {
        long seed = new Random().nextLong();
        Random rnd = new Random(seed);
        LagHistory h = new LagHistory(FIVE_S, Duration.ofMinutes(1));
        assertThat(h.capacity()).isEqualTo(60 / 5 + 2);
        // samples far closer than the interval: retention alone would keep thousands
        long t = 0;
        for (int i = 0; i < 5_000; i++) {
            t += rnd.nextInt(10);
            h.record(t, List.of(table(1, "db.a", 1, i, i)));
        }
        LagHistoryView.Series s = h.view().tables().get(0);
        assertThat(s.timeMillis()).as("seed %d", seed).hasSize(h.capacity());
        assertThat(s.lagRecords()[s.lagRecords().length - 1]).as("seed %d", seed).isEqualTo(4_999);
        assertThat(s.timeMillis()).as("seed %d", seed).isSorted();
        assertThat(s.lagRecords()).as("seed %d", seed).isSorted();
    }

    @Test
    void t28AWallClockStepBackDropsTheSamplesNowInTheFuture() {
        LagHistory h = new LagHistory(FIVE_S, Duration.ofMinutes(1));
        for (long t = 0; t <= 20_000; t += 5_000) {
            h.record(t, List.of(table(1, "db.a", 1, t, 0)));
        }
        h.record(12_000, List.of(table(1, "db.a", 1, 99, 0)));
        LagHistoryView.Series s = h.view().tables().get(0);
        assertThat(s.timeMillis()).containsExactly(0, 5_000, 10_000, 12_000);
        assertThat(s.lagMillis()).containsExactly(0, 5_000, 10_000, 99);
    }

    @Test
    void t28OneTableByNameOrATypedNotFound() {
        LagHistory h = new LagHistory(FIVE_S, Duration.ofMinutes(1));
        h.record(0, List.of(table(1, "db.a", 1, 0, 0), table(2, "db.b", 1, 0, 0)));
        assertThat(h.view("db.b").tables())
                .extracting(LagHistoryView.Series::tableId)
                .containsExactly(2L);
        assertThatThrownBy(() -> h.view("db.nope"))
                .isInstanceOf(NotFoundException.class)
                .hasMessageContaining("db.nope")
                .hasMessageContaining("/api/tiering");
    }

    @Test
    void t28SettingsThatKeepNoHistoryOrTooMuchAreRejected() {
        assertThatThrownBy(() -> new LagHistory(Duration.ofSeconds(10), Duration.ofSeconds(5)))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("server.http.lag-history.retention")
                .hasMessageContaining("at least one interval");
        assertThatThrownBy(() -> new LagHistory(Duration.ofMillis(10), Duration.ofDays(1)))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("server.http.lag-history.interval")
                .hasMessageContaining("100000");
        assertThat(LagHistory.capacityFor(FIVE_S, Duration.ofHours(1))).isEqualTo(722);
    }

    @Test
    void t28JsonShapeIsColumnsPerTable() throws Exception {
        LagHistory h = new LagHistory(FIVE_S, Duration.ofMinutes(1));
        h.record(1_000, List.of(table(7, "db.a", 30_000, 0, 0)));
        h.record(6_000, List.of(table(7, "db.a", 30_000, 4_000, 12)));
        JsonNode root =
                new ObjectMapper().readTree(new ObjectMapper().writeValueAsString(h.view()));
        assertThat(root.get("intervalMillis").asLong()).isEqualTo(5_000);
        assertThat(root.get("retentionMillis").asLong()).isEqualTo(60_000);
        assertThat(root.get("lastSampleMillis").asLong()).isEqualTo(6_000);
        JsonNode t = root.get("tables").get(0);
        assertThat(t.get("tableId").asLong()).isEqualTo(7);
        assertThat(t.get("table").asText()).isEqualTo("db.a");
        assertThat(t.get("freshnessMillis").asLong()).isEqualTo(30_000);
        assertThat(t.get("state").asText()).isEqualTo("PENDING");
        assertThat(t.get("timeMillis").toString()).isEqualTo("[1000,6000]");
        assertThat(t.get("lagMillis").toString()).isEqualTo("[0,4000]");
        assertThat(t.get("lagRecords").toString()).isEqualTo("[0,12]");
    }

    @Test
    void t28AnEmptyHistoryHasNoTablesAndNoLastSample() throws Exception {
        LagHistory h = new LagHistory(FIVE_S, Duration.ofMinutes(1));
        assertThat(h.view().tables()).isEmpty();
        assertThat(h.view().lastSampleMillis()).isEqualTo(-1);
    }
}
