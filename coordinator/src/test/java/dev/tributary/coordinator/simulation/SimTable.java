package dev.tributary.coordinator.simulation;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A simulated table: its shape, its freshness and how long its splits take.
 *
 * <p>Two duration models: {@link #fixed} (every split of a round takes a given time, as in the
 * blog's walkthrough) and {@link #rated} (a split takes {@code overhead + records / readerRate},
 * where records accumulate at {@code recordsPerSecondPerBucket}; the slowest bucket sets the
 * round's duration).
 *
 * @param name table name
 * @param buckets bucket count (one split per bucket with new data)
 * @param freshness {@code table.datalake.freshness}
 * @param primaryKey whether the first round reads KV snapshots
 * @param recordsPerSecondPerBucket write rate of every bucket
 * @param firstRound fixed model: split duration of the first round, else {@code null}
 * @param laterRounds fixed model: split duration of later rounds, else {@code null}
 */
public record SimTable(
        String name,
        int buckets,
        Duration freshness,
        boolean primaryKey,
        double recordsPerSecondPerBucket,
        Duration firstRound,
        Duration laterRounds) {

    public SimTable {
        Objects.requireNonNull(name);
        if (buckets < 1) {
            throw new IllegalArgumentException("buckets must be >= 1");
        }
    }

    /** Every split of a round takes a fixed time; writes run at 1,000 records/s per bucket. */
    public static SimTable fixed(
            String name,
            int buckets,
            Duration freshness,
            boolean primaryKey,
            Duration firstRound,
            Duration laterRounds) {
        return new SimTable(name, buckets, freshness, primaryKey, 1000, firstRound, laterRounds);
    }

    /** Split durations follow the data: {@code overhead + records / readerRate}. */
    public static SimTable rated(
            String name, int buckets, Duration freshness, double recordsPerSecondPerBucket) {
        return new SimTable(name, buckets, freshness, false, recordsPerSecondPerBucket, null, null);
    }

    boolean fixedModel() {
        return firstRound != null;
    }

    /**
     * The tiering blog's walkthrough: clicks (log, 16 buckets, 1 min, ~30 s rounds), orders (log,
     * 8, 2 min, ~90 s) and customers (PK, 12, 5 min, 100 s first round then 20 s).
     */
    public static List<SimTable> blogWalkthrough() {
        return List.of(
                fixed(
                        "clicks",
                        16,
                        Duration.ofMinutes(1),
                        false,
                        Duration.ofSeconds(30),
                        Duration.ofSeconds(30)),
                fixed(
                        "orders",
                        8,
                        Duration.ofMinutes(2),
                        false,
                        Duration.ofSeconds(90),
                        Duration.ofSeconds(90)),
                fixed(
                        "customers",
                        12,
                        Duration.ofMinutes(5),
                        true,
                        Duration.ofSeconds(100),
                        Duration.ofSeconds(20)));
    }
}
