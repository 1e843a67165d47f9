package dev.tributary.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.common.id.TablePath;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class RoundFeedTest {
    private static final TablePath CLICKS = TablePath.of("shop", "clicks");
    private static final long EPOCH = 2_000_000_000L;

    private static TableTieringStatus.Round committed(long epoch, long round, long rows) {
        return new TableTieringStatus.Round(
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
                Optional.empty());
    }

    private static TableTieringStatus.Round failed(long epoch, long round, String message) {
        return new TableTieringStatus.Round(
                round,
                epoch,
                Optional.of("job"),
                5,
                "FAILED",
                1_000,
                3_000,
                0,
                0,
                0,
                -1,
                -1,
                false,
                -1,
                Optional.of(message));
    }

    private static TableTieringStatus status(
            String state, long failures, long nextEventAt, List<TableTieringStatus.Round> rounds) {
        Optional<TableTieringStatus.Round> last =
                rounds.stream().filter(r -> !r.outcome().equals("FAILED")).reduce((a, b) -> b);
        return new TableTieringStatus(
                1,
                CLICKS,
                state,
                rounds.isEmpty() ? 0 : rounds.get(rounds.size() - 1).epoch(),
                -1,
                last,
                OptionalLong.of(2_000),
                OptionalLong.of(17),
                Optional.empty(),
                failures,
                failures == 0 ? Optional.empty() : Optional.of("lake said no"),
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
    void oneLinePerEndedRoundAndTotalsAddUp() {
        RoundFeed feed = new RoundFeed();
        assertThat(feed.update(List.of(status("SCHEDULED", 0, 0, List.of())), 0)).isEmpty();
        List<TableTieringStatus.Round> rounds = new ArrayList<>();
        rounds.add(committed(EPOCH, 1, 100));
        List<String> first = feed.update(List.of(status("SCHEDULED", 0, 0, rounds)), 0);
        assertThat(first).hasSize(1);
        // the epoch as incarnation:counter, never the raw 2000000000
        assertThat(first.get(0))
                .contains("shop.clicks", " 2:0 ", "100", "1.5s", "2.0s", "17")
                .doesNotContain("2000000000");
        assertThat(feed.update(List.of(status("SCHEDULED", 0, 0, rounds)), 0))
                .as("same round again")
                .isEmpty();
        // two rounds ended between polls: both get a line, oldest first
        rounds.add(committed(EPOCH + 1, 2, 50));
        rounds.add(committed(EPOCH + 2, 3, 7));
        List<String> two = feed.update(List.of(status("SCHEDULED", 0, 0, rounds)), 0);
        assertThat(two).hasSize(2);
        assertThat(two.get(0)).contains(" 2:1 ", "50");
        assertThat(two.get(1)).contains(" 2:2 ", "7");
        assertThat(feed.totals().get(CLICKS)).isEqualTo(new RoundFeed.Totals(3, 157, 0));
    }

    @Test
    void aFailingTableKeepsItsLinesWithTheMessageAndTheNextTry() {
        RoundFeed feed = new RoundFeed();
        List<TableTieringStatus.Round> rounds = new ArrayList<>();
        rounds.add(committed(EPOCH, 1, 100));
        feed.update(List.of(status("SCHEDULED", 0, 0, rounds)), 0);

        rounds.add(failed(EPOCH + 1, 2, "lake schema of shop.clicks changed: column 'x' missing"));
        long now = 1_700_000_000_000L;
        List<String> lines = feed.update(List.of(status("FAILED", 1, now + 4_000, rounds)), now);
        assertThat(lines)
                .singleElement()
                .asString()
                .contains("shop.clicks", " 2:1 ", "FAILED after 3.0s", "1 in a row")
                .contains("next try at", "in 4.0s")
                .endsWith("lake schema of shop.clicks changed: column 'x' missing");

        rounds.add(failed(EPOCH + 2, 2, "again"));
        assertThat(feed.update(List.of(status("PENDING", 2, 0, rounds)), now))
                .singleElement()
                .asString()
                .contains("2 in a row", "queued for its next try")
                .endsWith(": again");
        assertThat(feed.totals().get(CLICKS)).isEqualTo(new RoundFeed.Totals(1, 100, 2));
    }
}
