package dev.tributary.coordinator.tiering;

import dev.tributary.common.config.Configuration;
import dev.tributary.coordinator.CoordinatorOptions;
import dev.tributary.tiering.api.CommitOrder;
import java.time.Duration;

/**
 * The tiering manager's settings, parsed once from the typed options.
 *
 * @param heartbeatInterval {@link CoordinatorOptions#HEARTBEAT_INTERVAL}
 * @param heartbeatTimeout {@link CoordinatorOptions#HEARTBEAT_TIMEOUT}
 * @param backoffBase {@link CoordinatorOptions#BACKOFF_BASE}
 * @param backoffMax {@link CoordinatorOptions#BACKOFF_MAX}
 * @param queuePolicy {@link CoordinatorOptions#QUEUE_POLICY}
 * @param commitOrder {@link CoordinatorOptions#COMMIT_ORDER}
 * @param commitTimeout {@link CoordinatorOptions#COMMIT_TIMEOUT}
 * @param orphanGracePeriod {@link CoordinatorOptions#ORPHAN_GRACE_PERIOD}
 */
public record TieringConfig(
        Duration heartbeatInterval,
        Duration heartbeatTimeout,
        Duration backoffBase,
        Duration backoffMax,
        QueuePolicy queuePolicy,
        CommitOrder commitOrder,
        Duration commitTimeout,
        Duration orphanGracePeriod) {

    public static TieringConfig from(Configuration conf) {
        return new TieringConfig(
                conf.get(CoordinatorOptions.HEARTBEAT_INTERVAL),
                conf.get(CoordinatorOptions.HEARTBEAT_TIMEOUT),
                conf.get(CoordinatorOptions.BACKOFF_BASE),
                conf.get(CoordinatorOptions.BACKOFF_MAX),
                conf.get(CoordinatorOptions.QUEUE_POLICY),
                conf.get(CoordinatorOptions.COMMIT_ORDER),
                conf.get(CoordinatorOptions.COMMIT_TIMEOUT),
                conf.get(CoordinatorOptions.ORPHAN_GRACE_PERIOD));
    }

    public static TieringConfig defaults() {
        return from(new Configuration());
    }

    public TieringConfig withQueuePolicy(QueuePolicy policy) {
        return new TieringConfig(
                heartbeatInterval,
                heartbeatTimeout,
                backoffBase,
                backoffMax,
                policy,
                commitOrder,
                commitTimeout,
                orphanGracePeriod);
    }

    public TieringConfig withCommitOrder(CommitOrder order) {
        return new TieringConfig(
                heartbeatInterval,
                heartbeatTimeout,
                backoffBase,
                backoffMax,
                queuePolicy,
                order,
                commitTimeout,
                orphanGracePeriod);
    }

    /** Backoff before the n-th consecutive failure's retry (n >= 1): base * 2^(n-1), capped. */
    public long backoffMillis(long consecutiveFailures) {
        long base = backoffBase.toMillis();
        long max = backoffMax.toMillis();
        int shift = (int) Math.min(62, Math.max(0, consecutiveFailures - 1));
        if (base > 0 && shift >= Long.numberOfLeadingZeros(base) - 1) {
            return max;
        }
        return Math.min(max, base << shift);
    }

    /** How often timed-out tables are looked for: a quarter of the timeout (T18). */
    public long sweepIntervalMillis() {
        return Math.max(1, heartbeatTimeout.toMillis() / 4);
    }
}
