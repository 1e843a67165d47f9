package dev.tributary.cli.demo;

import dev.tributary.cli.output.TieringText;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.common.id.EpochFormat;
import dev.tributary.common.id.TablePath;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns successive tiering status snapshots into one line per round that ended since the previous
 * snapshot: committed and empty rounds with their rows, duration and the lag after them, failed
 * rounds with their message, how many failed in a row and when the table is tried again. It reads
 * each table's recent rounds (the coordinator keeps the last 50), so several rounds ending between
 * two polls each get their line and a table whose rounds fail keeps showing up.
 */
public final class RoundFeed {
    public static final String HEADER =
            String.format(
                    "%-8s  %-16s  %6s  %7s  %8s  %8s  %-6s  %8s  %11s",
                    "TIME",
                    "TABLE",
                    "ROUND",
                    "EPOCH",
                    "ROWS",
                    "DURATION",
                    "FORCED",
                    "LAG",
                    "LAG RECORDS");

    /** Per table: the committed rounds seen, the rows they carried, and the failed rounds seen. */
    public record Totals(int rounds, long rows, int failed) {
        public Totals(int rounds, long rows) {
            this(rounds, rows, 0);
        }
    }

    private final Map<TablePath, Set<String>> seen = new HashMap<>();
    private final Map<TablePath, Totals> totals = new HashMap<>();

    /** Lines for the rounds that ended since the previous call, oldest first per table. */
    public List<String> update(List<TableTieringStatus> statuses, long nowMillis) {
        List<String> lines = new ArrayList<>();
        for (TableTieringStatus s : statuses) {
            Set<String> before = seen.getOrDefault(s.path(), Set.of());
            Set<String> now = new HashSet<>();
            List<TableTieringStatus.Round> rounds = new ArrayList<>(s.recentRounds());
            if (rounds.isEmpty() && s.lastRound().isPresent()) {
                rounds.add(s.lastRound().get());
            }
            for (TableTieringStatus.Round r : rounds) {
                String key = r.epoch() + "/" + r.roundId() + "/" + r.outcome();
                now.add(key);
                if (before.contains(key)) {
                    continue;
                }
                lines.add(line(s, r, nowMillis));
                boolean failed = "FAILED".equals(r.outcome());
                totals.merge(
                        s.path(),
                        failed ? new Totals(0, 0, 1) : new Totals(1, Math.max(0, r.rows()), 0),
                        (a, b) ->
                                new Totals(
                                        a.rounds() + b.rounds(),
                                        a.rows() + b.rows(),
                                        a.failed() + b.failed()));
            }
            // only keys still in the status window: the set stays as small as the window
            seen.put(s.path(), now);
        }
        return lines;
    }

    private static String line(TableTieringStatus s, TableTieringStatus.Round r, long nowMillis) {
        String head =
                String.format(
                        "%-8s  %-16s  %6d  %7s  ",
                        TieringText.TIME.format(Instant.ofEpochMilli(nowMillis)),
                        s.path(),
                        r.roundId(),
                        EpochFormat.format(r.epoch()));
        if ("FAILED".equals(r.outcome())) {
            return head
                    + "FAILED after "
                    + TieringText.duration(r.durationMillis())
                    + " ("
                    + s.failures()
                    + " in a row; "
                    + TieringText.nextTry(s, nowMillis)
                    + "): "
                    + r.failure().orElse("no message");
        }
        return head
                + String.format(
                        "%8d  %8s  %-6s  %8s  %11s",
                        r.rows(),
                        TieringText.duration(r.durationMillis()),
                        r.forceFinished() ? "yes" : "no",
                        s.lagMillis().isPresent()
                                ? TieringText.duration(s.lagMillis().getAsLong())
                                : "?",
                        s.lagRecords().isPresent()
                                ? Long.toString(s.lagRecords().getAsLong())
                                : "?");
    }

    public Map<TablePath, Totals> totals() {
        return Map.copyOf(totals);
    }
}
