package dev.tributary.storage.log;

import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * A replica's hook for tests of what readers and retention see: appends are admitted and
 * acknowledged at once, and the high watermark is whatever the test says (replicas that have not
 * fetched yet).
 */
public final class FixedHighWatermark implements LogBucket.Replication {
    private final LongSupplier highWatermark;

    public FixedHighWatermark(LongSupplier highWatermark) {
        this.highWatermark = highWatermark;
    }

    @Override
    public void checkCanAppend() {}

    @Override
    public CompletableFuture<Void> acknowledged(long durableEnd, long endOffset) {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public long highWatermark() {
        return highWatermark.getAsLong();
    }
}
