package dev.tributary.common.record;

import dev.tributary.common.row.BucketFunction;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.TableDescriptor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Chooses the bucket of a row. Tables with bucket keys (every primary-key table) route each row by
 * the table's {@link BucketFunction} over the bucket key, so one key always lands in one bucket
 * (the bucket the store checks and, for a lake-aligned function, the lake's bucket). A log table
 * without bucket keys has no such constraint and spreads whole batches round robin with {@link
 * #nextBucket()}. Thread safe.
 */
public final class BucketRouter {
    private final int bucketCount;
    private final BucketFunction function;
    private final AtomicInteger next = new AtomicInteger();

    private BucketRouter(TableDescriptor descriptor) {
        this.bucketCount = descriptor.bucketCount();
        this.function = descriptor.bucketKeys().isEmpty() ? null : BucketFunction.of(descriptor);
    }

    public static BucketRouter of(TableDescriptor descriptor) {
        return new BucketRouter(descriptor);
    }

    /** True if rows are routed by key; false if batches go round robin. */
    public boolean routesByKey() {
        return function != null;
    }

    public int bucketCount() {
        return bucketCount;
    }

    /**
     * The bucket of a row (a full row, or for a delete a row with at least the key fields).
     *
     * @throws IllegalStateException for a table without bucket keys: use {@link #nextBucket()}
     */
    public int bucketOf(Row row) {
        if (function == null) {
            throw new IllegalStateException(
                    "this table has no bucket key; spread batches with nextBucket()");
        }
        return function.bucketOf(row);
    }

    /** The bucket for the next batch of a table without bucket keys (round robin). */
    public int nextBucket() {
        return Math.floorMod(next.getAndIncrement(), bucketCount);
    }
}
