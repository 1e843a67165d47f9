package dev.tributary.cli.demo;

import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.common.id.TablePath;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns successive tiering status snapshots into one line per newly committed round. A round is new
 * when a table's last round id or epoch differs from the one seen before; rounds that finished
 * between two polls show only the latest (the status keeps one).
 */
public final class RoundFeed {
    public static final String HEADER =
            String.format(
                    "%-8s  %-16s  %6s  %10s  %8s  %8s  %-6s  %8s  %11s",
                    "TIME",
                    "TABLE",
                    "ROUND",
                    "EPOCH",
                    "ROWS",
                    "DURATION",
                    "FORCED",
                    "LAG",
                    "LAG RECORDS");
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    /** Per table: the committed rounds seen, and rows they carried. */
    public record Totals(int rounds, long rows) {}

    private final Map<TablePath, String> lastSeen = new HashMap<>();
    private final Map<TablePath, Totals> totals = new HashMap<>();

    /** Lines for the rounds committed since the previous call. */
    public List<String> update(List<TableTieringStatus> statuses, long nowMillis) {
        List<String> lines = new ArrayList<>();
        for (TableTieringStatus s : statuses) {
            if (s.lastRound().isEmpty()) {
                continue;
            }
            TableTieringStatus.Round r = s.lastRound().get();
            String key = r.epoch() + "/" + r.roundId();
            if (key.equals(lastSeen.put(s.path(), key))) {
                continue;
            }
            totals.merge(
                    s.path(),
                    new Totals(1, r.rows()),
                    (a, b) -> new Totals(a.rounds() + 1, a.rows() + b.rows()));
            lines.add(
                    String.format(
                            "%-8s  %-16s  %6d  %10d  %8d  %8s  %-6s  %8s  %11s",
                            TIME.format(Instant.ofEpochMilli(nowMillis)),
                            s.path(),
                            r.roundId(),
                            r.epoch(),
                            r.rows(),
                            human(r.durationMillis()),
                            r.forceFinished() ? "yes" : "no",
                            s.lagMillis().isPresent() ? human(s.lagMillis().getAsLong()) : "?",
                            s.lagRecords().isPresent()
                                    ? Long.toString(s.lagRecords().getAsLong())
                                    : "?"));
        }
        return lines;
    }

    public Map<TablePath, Totals> totals() {
        return Map.copyOf(totals);
    }

    static String human(long millis) {
        Duration d = Duration.ofMillis(millis);
        if (d.toMinutes() > 0) {
            return d.toMinutes() + "m" + d.toSecondsPart() + "s";
        }
        return String.format("%.1fs", millis / 1000.0);
    }
}
