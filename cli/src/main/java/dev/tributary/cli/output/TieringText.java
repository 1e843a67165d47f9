package dev.tributary.cli.output;

import dev.tributary.client.admin.TableTieringStatus;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/** Tiering facts as the CLI and the demo print them. */
public final class TieringText {
    /** Local wall time of day: what a person compares with the clock on the wall. */
    public static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    private TieringText() {}

    /** When a failed table is tried again, as its status says at {@code nowMillis}. */
    public static String nextTry(TableTieringStatus s, long nowMillis) {
        switch (s.state()) {
            case "FAILED":
                if (s.nextEventAtMillis() > 0) {
                    return "next try at "
                            + TIME.format(Instant.ofEpochMilli(s.nextEventAtMillis()))
                            + ", in "
                            + duration(Math.max(0, s.nextEventAtMillis() - nowMillis));
                }
                return "next try after its backoff";
            case "PENDING":
                return "queued for its next try";
            case "TIERING":
                return "being tried again";
            default:
                return "next round as scheduled";
        }
    }

    /** 850ms as 0.9s, 75s as 1m15s, 2h3m for longer. */
    public static String duration(long millis) {
        Duration d = Duration.ofMillis(millis);
        if (d.toHours() > 0) {
            return d.toHours() + "h" + d.toMinutesPart() + "m";
        }
        if (d.toMinutes() > 0) {
            return d.toMinutes() + "m" + d.toSecondsPart() + "s";
        }
        return String.format("%.1fs", millis / 1000.0);
    }
}
