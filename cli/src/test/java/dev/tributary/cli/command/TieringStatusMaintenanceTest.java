package dev.tributary.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.client.admin.LakeMaintenance;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.common.id.TablePath;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** What {@code tributary tiering status} prints about lake maintenance (T38, T39). */
class TieringStatusMaintenanceTest {

    private static TableTieringStatus table(String name, Optional<LakeMaintenance> m) {
        return new TableTieringStatus(
                1,
                TablePath.of("shop", name),
                "SCHEDULED",
                3_000_000_013L,
                -1,
                Optional.empty(),
                OptionalLong.of(0),
                OptionalLong.of(0),
                Optional.empty(),
                0,
                Optional.empty(),
                10_000,
                0,
                Optional.empty(),
                0,
                List.of(),
                List.of(),
                0,
                List.of(),
                m);
    }

    private static LakeMaintenance maintenance(
            boolean auto, OptionalLong statsAt, Optional<String> error) {
        return new LakeMaintenance(
                "IDLE",
                auto,
                5,
                -1,
                Optional.empty(),
                statsAt,
                Map.of(0, 3, 1, 4),
                4,
                2,
                1234,
                7,
                0,
                Optional.of(
                        new LakeMaintenance.Compaction(
                                11,
                                Optional.of("job"),
                                "COMMITTED",
                                1_700_000_000_000L,
                                1_700_000_001_000L,
                                2,
                                12,
                                2,
                                5_000,
                                4_000,
                                42,
                                Optional.empty())),
                3,
                1,
                0,
                15_000,
                0,
                9,
                20,
                80_000,
                error,
                7);
    }

    @Test
    void eachMaintainedTableGetsItsFilesSnapshotsCompactionsAndReclaimedBytes() {
        StringWriter text = new StringWriter();
        TieringCommand.Status.printMaintenance(
                new PrintWriter(text, true),
                List.of(
                        table("none", Optional.empty()),
                        table(
                                "orders",
                                Optional.of(
                                        maintenance(
                                                true,
                                                OptionalLong.of(1_700_000_000_000L),
                                                Optional.empty()))),
                        table(
                                "clicks",
                                Optional.of(
                                        maintenance(
                                                false,
                                                OptionalLong.empty(),
                                                Optional.of("maintenance pass failed: boom"))))));
        String out = text.toString();
        assertThat(out).doesNotContain("shop.none");
        assertThat(out)
                .contains("FILES/BUCKET", "SNAPSHOTS", "RECLAIMED BYTES")
                .contains("shop.orders")
                .contains("4 of 5")
                .contains("COMMITTED 12->2 files")
                .contains("3 ok, 1 gave way, 0 failed")
                .contains("80000");
        assertThat(out)
                .as("a table whose figures were not read yet shows ? and off")
                .containsPattern("shop\\.clicks\\s+off\\s+\\?");
        assertThat(out).contains("maintenance: shop.clicks: maintenance pass failed: boom");
    }
}
