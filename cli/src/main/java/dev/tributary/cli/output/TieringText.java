package dev.tributary.cli.output;

import dev.tributary.client.admin.PkDeletes;
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

    /**
     * How a primary-key table retracts rows in the lake (T48), e.g. "row deletes: by position
     * (deletion vectors), store index 3/4 buckets at lake snapshot 12; others read the lake".
     */
    public static String rowDeletes(PkDeletes d) {
        if (!d.byPosition()) {
            return "row deletes: by key (" + d.mode() + " deletes)";
        }
        if (d.rowLocator().filter(PkDeletes.STORE_INDEX::equals).isEmpty()) {
            return "row deletes: by position (deletion vectors kept by Paimon)";
        }
        String text = "row deletes: by position (deletion vectors), store index ";
        if (!d.indexOpen()) {
            return text
                    + "not opened since the server started (a round's first lookup opens it);"
                    + " until then rounds read the lake";
        }
        text += d.indexedBuckets() + "/" + d.buckets() + " buckets";
        if (d.indexedBuckets() == 0 || d.indexedSnapshotId().isEmpty()) {
            return text + "; rounds read the lake until their lookups build it";
        }
        text += " at lake snapshot " + d.indexedSnapshotId().getAsLong();
        int others = d.indexedBuckets() - d.bucketsAtSnapshot();
        if (others > 0) {
            // buckets no round changed since keep an older snapshot: still exact for it
            text += " (" + d.bucketsAtSnapshot() + " of them; " + others + " at older snapshots)";
        }
        return d.indexedBuckets() < d.buckets() ? text + "; others read the lake" : text;
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
