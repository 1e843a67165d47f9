package dev.tributary.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.common.id.TablePath;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class FinalRoundsTest {
    private static final TablePath CLICKS = DemoTables.CLICKS;
    private static final TablePath ORDERS = DemoTables.ORDERS;

    private static TableTieringStatus status(
            TablePath path, OptionalLong lagRecords, String lagError, long failures) {
        return new TableTieringStatus(
                1,
                path,
                "SCHEDULED",
                2_000_000_000L,
                -1,
                Optional.empty(),
                lagRecords.isPresent() ? OptionalLong.of(1_000) : OptionalLong.empty(),
                lagRecords,
                Optional.ofNullable(lagError),
                failures,
                Optional.empty(),
                10_000,
                0,
                Optional.empty(),
                0,
                List.of(),
                List.of(),
                0,
                List.of(),
                Optional.empty());
    }

    @Test
    void aTableIsCaughtUpOnlyWhenItsMeasuredLagIsZeroRecords() {
        List<TablePath> tables = List.of(CLICKS, ORDERS, DemoTables.CUSTOMERS);
        Map<TablePath, String> behind =
                FinalRounds.behind(
                        List.of(
                                status(CLICKS, OptionalLong.of(0), null, 0),
                                status(ORDERS, OptionalLong.of(1_200), null, 2)),
                        tables);
        assertThat(behind)
                .containsExactly(
                        Map.entry(
                                ORDERS,
                                "1200 records not in the lake yet (2 failed rounds in a row)"),
                        Map.entry(DemoTables.CUSTOMERS, "no tiering status"));
        assertThat(FinalRounds.describe(behind))
                .isEqualTo(
                        "shop.orders 1200 records not in the lake yet (2 failed rounds in a row);"
                                + " shop.customers no tiering status");

        // a lag the server could not measure is not a caught-up table
        assertThat(
                        FinalRounds.behind(
                                List.of(
                                        status(
                                                CLICKS,
                                                OptionalLong.empty(),
                                                "bucket 3 unreadable",
                                                0)),
                                List.of(CLICKS)))
                .containsExactly(Map.entry(CLICKS, "lag not measured: bucket 3 unreadable"));

        assertThat(
                        FinalRounds.behind(
                                List.of(
                                        status(CLICKS, OptionalLong.of(0), null, 0),
                                        status(ORDERS, OptionalLong.of(0), null, 0)),
                                List.of(CLICKS, ORDERS)))
                .isEmpty();
    }

    @Test
    void theWaitCoversARoundThatJustMissedTheLastWriteAndTheNextOne() {
        assertThat(FinalRounds.bound(DemoTables.specs(true))).isEqualTo(Duration.ofSeconds(90));
        assertThat(FinalRounds.bound(DemoTables.specs(false)))
                .isEqualTo(Duration.ofMinutes(10).plusSeconds(30));
    }
}
