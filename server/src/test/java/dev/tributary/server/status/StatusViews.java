package dev.tributary.server.status;

import java.util.List;
import java.util.Map;

/** Minimal {@link TableStatusView}s for tests of the lag history. */
final class StatusViews {
    private StatusViews() {}

    static TableStatusView table(
            long tableId, String name, long freshnessMillis, long lagMillis, long lagRecords) {
        return new TableStatusView(
                tableId,
                name,
                "default",
                "PENDING",
                1,
                0,
                null,
                freshnessMillis,
                -1,
                -1,
                null,
                List.of(),
                lagMillis,
                lagRecords,
                null,
                0,
                0,
                null,
                -1,
                Map.of(),
                Map.of(),
                List.of(),
                List.of(),
                null,
                null,
                null);
    }

    /** A table whose lag could not be measured. */
    static TableStatusView unmeasured(long tableId, String name, String why) {
        return new TableStatusView(
                tableId, name, "default", "PENDING", 1, 0, null, 1_000, -1, -1, null, List.of(),
                null, null, why, 0, 0, null, -1, Map.of(), Map.of(), List.of(), List.of(), null,
                null, null);
    }
}
