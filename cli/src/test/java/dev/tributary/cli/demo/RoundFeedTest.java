package dev.tributary.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.common.id.TablePath;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class RoundFeedTest {
    private static final TablePath CLICKS = TablePath.of("shop", "clicks");

    private static TableTieringStatus status(long epoch, long round, long rows) {
        Optional<TableTieringStatus.Round> r =
                round == 0
                        ? Optional.empty()
                        : Optional.of(
                                new TableTieringStatus.Round(
                                        round,
                                        epoch,
                                        Optional.of("job"),
                                        5,
                                        "COMMITTED",
                                        1_000,
                                        1_500,
                                        rows,
                                        rows * 10,
                                        2,
                                        rows,
                                        rows * 10,
                                        false,
                                        round,
                                        Optional.empty()));
        return new TableTieringStatus(
                1,
                CLICKS,
                "TIERED",
                epoch,
                -1,
                r,
                OptionalLong.of(2_000),
                OptionalLong.of(17),
                Optional.empty(),
                0,
                Optional.empty(),
                10_000,
                0,
                Optional.empty(),
                0,
                r.stream().toList(),
                java.util.List.of());
    }

    @Test
    void oneLinePerNewRoundAndTotalsAddUp() {
        RoundFeed feed = new RoundFeed();
        assertThat(feed.update(List.of(status(0, 0, 0)), 0)).isEmpty();
        List<String> first = feed.update(List.of(status(1, 1, 100)), 0);
        assertThat(first).hasSize(1);
        assertThat(first.get(0)).contains("shop.clicks", "100", "1.5s", "2.0s", "17");
        assertThat(feed.update(List.of(status(1, 1, 100)), 0)).as("same round again").isEmpty();
        assertThat(feed.update(List.of(status(2, 1, 50)), 0))
                .as("same round id under a new epoch is a new round")
                .hasSize(1);
        assertThat(feed.totals().get(CLICKS)).isEqualTo(new RoundFeed.Totals(2, 150));
    }
}
