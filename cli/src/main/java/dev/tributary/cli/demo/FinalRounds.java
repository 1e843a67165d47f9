package dev.tributary.cli.demo;

import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.common.id.TablePath;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Whether the lake holds everything written to the demo's tables, judged by the server's own
 * tiering status: a table is caught up when its measured lag is zero records, that is when the
 * tiered offset of every bucket (of every partition) has reached the store's end offset. Once the
 * demo's writes are all acknowledged this happens only after the round carrying the last of them
 * has committed, and that round is in the same status snapshot (the coordinator records a round's
 * offsets and its summary together).
 */
final class FinalRounds {
    /** Time for a round to be scheduled, read, written and committed beyond its freshness. */
    private static final Duration ROUND_SLACK = Duration.ofSeconds(30);

    private FinalRounds() {}

    /**
     * How long the demo waits for the last rounds: a round that started just before the last write
     * may miss it, and the next one starts a freshness interval later, so twice the longest
     * freshness and some slack.
     */
    static Duration bound(List<DemoTables.Spec> tables) {
        Duration longest =
                tables.stream()
                        .map(DemoTables.Spec::freshness)
                        .max(Duration::compareTo)
                        .orElse(Duration.ZERO);
        return longest.multipliedBy(2).plus(ROUND_SLACK);
    }

    /**
     * The tables whose lake copy does not yet hold every record in the store, each with why, in the
     * order of {@code tables}; empty when all are caught up.
     */
    static Map<TablePath, String> behind(
            List<TableTieringStatus> statuses, List<TablePath> tables) {
        Map<TablePath, TableTieringStatus> byPath =
                statuses.stream()
                        .collect(
                                Collectors.toMap(
                                        TableTieringStatus::path,
                                        Function.identity(),
                                        (a, b) -> b));
        Map<TablePath, String> behind = new LinkedHashMap<>();
        for (TablePath t : tables) {
            TableTieringStatus s = byPath.get(t);
            if (s == null) {
                behind.put(t, "no tiering status");
            } else if (s.lagRecords().isEmpty()) {
                behind.put(t, "lag not measured" + s.lagError().map(e -> ": " + e).orElse(""));
            } else if (s.lagRecords().getAsLong() > 0) {
                behind.put(
                        t,
                        s.lagRecords().getAsLong()
                                + " records not in the lake yet"
                                + (s.failures() > 0
                                        ? " (" + s.failures() + " failed rounds in a row)"
                                        : ""));
            }
        }
        return behind;
    }

    /** One line naming each table that is behind and why. */
    static String describe(Map<TablePath, String> behind) {
        return behind.entrySet().stream()
                .map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining("; "));
    }
}
