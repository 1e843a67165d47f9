package dev.tributary.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.common.id.TablePath;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class TieringStatusFailuresTest {

    private static TableTieringStatus table(
            String name, String state, long failures, long nextEventAt, String message) {
        List<TableTieringStatus.Round> rounds =
                failures == 0
                        ? List.of()
                        : List.of(
                                new TableTieringStatus.Round(
                                        7,
                                        3_000_000_013L,
                                        Optional.of("job"),
                                        0,
                                        "FAILED",
                                        0,
                                        10,
                                        0,
                                        0,
                                        0,
                                        -1,
                                        -1,
                                        false,
                                        -1,
                                        Optional.of(message)));
        return new TableTieringStatus(
                1,
                TablePath.of("shop", name),
                state,
                3_000_000_013L,
                -1,
                Optional.empty(),
                OptionalLong.of(0),
                OptionalLong.of(0),
                Optional.empty(),
                failures,
                Optional.ofNullable(message),
                10_000,
                0,
                Optional.empty(),
                nextEventAt,
                rounds,
                List.of(),
                0,
                List.of(),
                Optional.empty());
    }

    @Test
    void aFailingTableGetsItsMessageAndNextTryBelowTheTable() {
        StringWriter text = new StringWriter();
        long now = 1_700_000_000_000L;
        TieringCommand.Status.printFailures(
                new PrintWriter(text, true),
                List.of(
                        table("fine", "SCHEDULED", 0, 0, null),
                        table("orders", "FAILED", 2, now + 8_000, "field 'amount' was dropped")),
                now);
        assertThat(text.toString())
                .doesNotContain("shop.fine")
                .contains(
                        "shop.orders: 2 rounds failed in a row, the last one round 7 (epoch 3:13)")
                .contains("next try at ", "in 8.0s")
                .contains("  field 'amount' was dropped");
    }
}
