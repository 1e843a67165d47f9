package dev.tributary.lake.api.maintenance;

import java.time.Duration;
import java.util.Objects;

/**
 * Which snapshots may be expired (T39): those beyond the newest {@code numRetained} AND committed
 * more than {@code timeRetained} ago, measured by the lake's clock (the one that stamped them).
 * Whatever the numbers say, the newest snapshot tiering of {@code tableId} committed, and every
 * snapshot after it, stays: reconciliation (T21) reads it.
 *
 * @param tableId the Tributary table whose newest tiering snapshot is protected
 * @param numRetained snapshots always kept, newest first ({@code
 *     table.datalake.snapshot.num-retained})
 * @param timeRetained snapshots younger than this are kept ({@code
 *     table.datalake.snapshot.time-retained})
 */
public record ExpiryPolicy(long tableId, int numRetained, Duration timeRetained) {
    public ExpiryPolicy {
        if (numRetained < 1) {
            throw new IllegalArgumentException("numRetained must be >= 1: " + numRetained);
        }
        Objects.requireNonNull(timeRetained, "timeRetained");
        if (timeRetained.isNegative()) {
            throw new IllegalArgumentException("timeRetained must be >= 0: " + timeRetained);
        }
    }
}
