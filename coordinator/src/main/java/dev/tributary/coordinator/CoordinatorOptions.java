package dev.tributary.coordinator;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.ConfigOptions;
import dev.tributary.coordinator.maintenance.MaintenanceOptions;
import dev.tributary.coordinator.tiering.QueuePolicy;
import dev.tributary.tiering.api.CommitOrder;
import java.time.Duration;
import java.util.List;

/** Server-level options of the tiering coordinator. */
public final class CoordinatorOptions {
    private CoordinatorOptions() {}

    public static final ConfigOption<Duration> HEARTBEAT_INTERVAL =
            ConfigOptions.key("tiering.heartbeat.interval")
                    .durationType()
                    .check(d -> !d.isNegative() && !d.isZero(), "must be > 0")
                    .defaultValue(Duration.ofSeconds(2))
                    .withDescription(
                            "How often a tiering job heartbeats its in-flight tables. The"
                                    + " coordinator tells jobs this value when they register.");

    public static final ConfigOption<Duration> HEARTBEAT_TIMEOUT =
            ConfigOptions.key("tiering.heartbeat.timeout")
                    .durationType()
                    .check(d -> !d.isNegative() && !d.isZero(), "must be > 0")
                    .defaultValue(Duration.ofSeconds(8))
                    .withDescription(
                            "A table whose job has not heartbeated it for this long is failed and"
                                    + " re-queued with a new epoch. Checked every timeout/4, so a"
                                    + " dead job is detected within 1.25 x timeout (10 s by"
                                    + " default).");

    public static final ConfigOption<Duration> BACKOFF_BASE =
            ConfigOptions.key("tiering.failure.backoff.base")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(1))
                    .withDescription(
                            "Delay before a failed table is queued again after its first"
                                    + " consecutive failure; doubles with each further failure.");

    public static final ConfigOption<Duration> BACKOFF_MAX =
            ConfigOptions.key("tiering.failure.backoff.max")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(5))
                    .withDescription("Upper bound of the failure backoff delay.");

    public static final ConfigOption<QueuePolicy> QUEUE_POLICY =
            ConfigOptions.key("tiering.queue.policy")
                    .enumType(QueuePolicy.class)
                    .defaultValue(QueuePolicy.DEADLINE)
                    .withDescription(
                            "Order in which pending tables are handed to jobs: 'fifo' (arrival"
                                    + " order, like Fluss) or 'deadline' (earliest pendingSince +"
                                    + " freshness first). The default was chosen from the"
                                    + " TieringSimulator comparison (bench/README.md).");

    public static final ConfigOption<CommitOrder> COMMIT_ORDER =
            ConfigOptions.key("tiering.commit.order")
                    .enumType(CommitOrder.class)
                    .defaultValue(CommitOrder.COMPLETION)
                    .withDescription(
                            "'completion': a table commits as soon as its round is complete."
                                    + " 'assignment': the coordinator holds a job's commit until"
                                    + " every table assigned to that job earlier has committed,"
                                    + " finished or failed.");

    public static final ConfigOption<Integer> COMMIT_THREADS =
            ConfigOptions.key("tiering.commit.threads")
                    .intType()
                    .check(n -> n >= 1 && n <= 256, "between 1 and 256")
                    .defaultValue(4)
                    .withDescription(
                            "Threads that run lake commits; commits of different tables run"
                                    + " concurrently, one at a time per table.");

    public static final ConfigOption<Duration> COMMIT_TIMEOUT =
            ConfigOptions.key("tiering.commit.timeout")
                    .durationType()
                    .check(d -> !d.isNegative() && !d.isZero(), "must be > 0")
                    .defaultValue(Duration.ofMinutes(2))
                    .withDescription(
                            "A lake commit still running after this long is interrupted and its"
                                    + " round failed; whether it landed is then read from the lake"
                                    + " (reconciliation) before the table's next round, and"
                                    + " another commit thread takes its place meanwhile.");

    public static final ConfigOption<Duration> ORPHAN_GRACE_PERIOD =
            ConfigOptions.key("tiering.orphan-files.grace-period")
                    .durationType()
                    .check(d -> !d.isNegative(), "must be >= 0")
                    .defaultValue(Duration.ofDays(1))
                    .withDescription(
                            "Files in a lake table's data directory that no snapshot references"
                                    + " are deleted by tiering's orphan cleanup once they are this"
                                    + " old. Files of Tributary's own failed, fenced or killed"
                                    + " attempts (named by their attempt) go at the table's next"
                                    + " commit, whatever their age; the grace period protects files"
                                    + " other writers of the lake table are still writing.");

    /** Every option declared here, for validation and documentation. */
    public static List<ConfigOption<?>> all() {
        return List.of(
                HEARTBEAT_INTERVAL,
                HEARTBEAT_TIMEOUT,
                BACKOFF_BASE,
                BACKOFF_MAX,
                QUEUE_POLICY,
                COMMIT_ORDER,
                COMMIT_THREADS,
                COMMIT_TIMEOUT,
                ORPHAN_GRACE_PERIOD,
                MaintenanceOptions.THREADS,
                MaintenanceOptions.JOB_SLOTS,
                MaintenanceOptions.TIMEOUT);
    }
}
