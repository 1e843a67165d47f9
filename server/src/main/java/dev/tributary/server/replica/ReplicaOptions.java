package dev.tributary.server.replica;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.ConfigOptions;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.MemorySize;
import java.time.Duration;
import java.util.List;

/** Options of a server's replicas of replicated buckets (T50). */
public final class ReplicaOptions {
    private ReplicaOptions() {}

    public static final ConfigOption<Integer> MIN_INSYNC_REPLICAS =
            ConfigOptions.key("min.insync.replicas")
                    .intType()
                    .check(n -> n >= 1, "must be >= 1")
                    .defaultValue(2)
                    .withDescription(
                            "A write to a replicated bucket is refused (retriable) while fewer"
                                    + " replicas than this are in sync, and acknowledged only once"
                                    + " every in-sync replica has it; capped at the table's"
                                    + " replication factor.");

    public static final ConfigOption<Duration> LAG_TIME_MAX =
            ConfigOptions.key("replica.lag.time.max")
                    .durationType()
                    .check(d -> d.toMillis() > 0, "must be positive")
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription(
                            "A follower that has not caught up with its leader's log for this long"
                                    + " leaves the bucket's in-sync set, so writes stop waiting"
                                    + " for it; it rejoins once it catches up.");

    public static final ConfigOption<Duration> FETCH_BACKOFF =
            ConfigOptions.key("replica.fetch.backoff")
                    .durationType()
                    .check(d -> d.toMillis() > 0, "must be positive")
                    .defaultValue(Duration.ofMillis(20))
                    .withDescription(
                            "A follower whose last fetch brought nothing new, or failed, fetches"
                                    + " again after this long; after records, at once.");

    public static final ConfigOption<Duration> FETCH_MAX_WAIT =
            ConfigOptions.key("replica.fetch.max-wait")
                    .durationType()
                    .check(d -> d.toMillis() >= 0 && d.toMillis() <= 10_000, "0..10s")
                    .defaultValue(Duration.ofMillis(500))
                    .withDescription(
                            "How long a leader holds a follower's fetch that finds nothing new,"
                                    + " answering as soon as new records are durable (a long poll:"
                                    + " an append is copied, and so acknowledged, without waiting"
                                    + " for the follower's next poll); 0 polls every"
                                    + " replica.fetch.backoff instead.");

    public static final ConfigOption<MemorySize> FETCH_MAX_BYTES =
            ConfigOptions.key("replica.fetch.max-bytes")
                    .memoryType()
                    .check(s -> s.bytes() >= 1024 && s.bytes() <= (32 << 20), "1kb..32mb")
                    .defaultValue(MemorySize.ofMebiBytes(1))
                    .withDescription(
                            "Records one fetch of a follower asks for (at least one batch comes).");

    public static final ConfigOption<Boolean> CONTROLLED_SHUTDOWN =
            ConfigOptions.key("replica.controlled-shutdown")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "A stopping server that holds replicas of replicated buckets first"
                                    + " asks the coordinator to move their leadership to in-sync"
                                    + " followers and to drop it from in-sync sets, so writes move"
                                    + " on at once; off, a stop costs what a crash does"
                                    + " (cluster.server.heartbeat-timeout).");

    public static final ConfigOption<Duration> HIGH_WATERMARK_CHECKPOINT_INTERVAL =
            ConfigOptions.key("replica.high-watermark.checkpoint-interval")
                    .durationType()
                    .check(d -> d.toMillis() >= 10, "at least 10ms")
                    .defaultValue(Duration.ofSeconds(5))
                    .withDescription(
                            "How often each replicated bucket's high watermark is written to disk"
                                    + " (and at a stop): a replica that restarts and leads shows"
                                    + " readers what was acknowledged at once, not nothing until"
                                    + " its followers fetched again.");

    public static final ConfigOption<MemorySize> MOVE_MAX_BYTES_PER_SECOND =
            ConfigOptions.key("replica.move.max-bytes-per-second")
                    .memoryType()
                    .check(s -> s.bytes() >= 1024, "at least 1kb")
                    .defaultValue(MemorySize.ofMebiBytes(64))
                    .withDescription(
                            "Bytes per second that the replicas moving onto this server (tributary"
                                    + " cluster rebalance) fetch from their leaders, together, so a"
                                    + " move does not take the leaders' disks and network from"
                                    + " writes and reads; followers already in sync are never"
                                    + " throttled.");

    public static final ConfigOption<Duration> MOVED_AWAY_DELETE_AFTER =
            ConfigOptions.key("replica.moved-away.delete-after")
                    .durationType()
                    .check(d -> !d.isNegative(), "must not be negative")
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription(
                            "How long a copy of a table, partition or bucket whose replicas"
                                    + " moved to other servers is kept (closed to clients) before"
                                    + " it is deleted; never before the server applied every metadata"
                                    + " change its log held when the move applied, since a"
                                    + " restarting server replays moves away and back.");

    public static List<ConfigOption<?>> all() {
        return List.of(
                MIN_INSYNC_REPLICAS,
                LAG_TIME_MAX,
                FETCH_BACKOFF,
                FETCH_MAX_WAIT,
                FETCH_MAX_BYTES,
                CONTROLLED_SHUTDOWN,
                HIGH_WATERMARK_CHECKPOINT_INTERVAL,
                MOVE_MAX_BYTES_PER_SECOND,
                MOVED_AWAY_DELETE_AFTER);
    }

    /** The values a server's replicas use. */
    public record Settings(
            int minInsync,
            long lagTimeMaxMillis,
            long backoffMillis,
            int maxWaitMillis,
            int maxBytes,
            long checkpointMillis,
            long moveBytesPerSecond) {
        public static Settings of(Configuration conf) {
            return new Settings(
                    conf.get(MIN_INSYNC_REPLICAS),
                    conf.get(LAG_TIME_MAX).toMillis(),
                    conf.get(FETCH_BACKOFF).toMillis(),
                    (int) conf.get(FETCH_MAX_WAIT).toMillis(),
                    (int) conf.get(FETCH_MAX_BYTES).bytes(),
                    conf.get(HIGH_WATERMARK_CHECKPOINT_INTERVAL).toMillis(),
                    conf.get(MOVE_MAX_BYTES_PER_SECOND).bytes());
        }
    }
}
