package dev.tributary.coordinator.cluster;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.ConfigOptions;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.InvalidConfigException;
import java.time.Duration;
import java.util.List;

/**
 * Options of server liveness (T49): how often a server heartbeats the coordinator and how long the
 * coordinator waits before it considers a silent server expired. Read them with {@link #from},
 * which checks them together once.
 */
public final class ServerLivenessOptions {
    private ServerLivenessOptions() {}

    public static final ConfigOption<Duration> HEARTBEAT_INTERVAL =
            ConfigOptions.key("cluster.server.heartbeat-interval")
                    .durationType()
                    .check(d -> d.toMillis() >= 10, "at least 10ms")
                    .defaultValue(Duration.ofSeconds(2))
                    .withDescription(
                            "How often a registered server heartbeats the coordinator (a lone"
                                    + " server heartbeats itself); the coordinator also checks"
                                    + " for expired servers this often.");

    public static final ConfigOption<Duration> HEARTBEAT_TIMEOUT =
            ConfigOptions.key("cluster.server.heartbeat-timeout")
                    .durationType()
                    .check(d -> d.toMillis() >= 10, "at least 10ms")
                    .defaultValue(Duration.ofSeconds(8))
                    .withDescription(
                            "A server whose heartbeats stop for this long is expired: the"
                                    + " coordinator no longer counts it as alive until it"
                                    + " heartbeats again. Must exceed"
                                    + " cluster.server.heartbeat-interval; 8s tolerates a few"
                                    + " lost heartbeats and multi-second GC pauses.");

    public static final ConfigOption<Boolean> PROBE =
            ConfigOptions.key("cluster.server.liveness-probe")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "When a server's heartbeat is half an interval late, the coordinator"
                                    + " opens a TCP connection to its RPC address; a refused"
                                    + " connection (its host is up, nothing listens: the process"
                                    + " died) expires it at once instead of after"
                                    + " cluster.server.heartbeat-timeout, so its buckets get new"
                                    + " leaders within seconds. No answer decides nothing. Turn"
                                    + " off when a refusal does not mean a dead server (an address"
                                    + " behind a proxy that refuses while the server lives).");

    public static List<ConfigOption<?>> all() {
        return List.of(HEARTBEAT_INTERVAL, HEARTBEAT_TIMEOUT, PROBE);
    }

    /**
     * Checks both options and that the timeout exceeds the interval.
     *
     * @throws InvalidConfigException naming both keys when it does not
     */
    public static void validate(Configuration conf) {
        conf.validate(all());
        Duration interval = conf.get(HEARTBEAT_INTERVAL);
        Duration timeout = conf.get(HEARTBEAT_TIMEOUT);
        if (timeout.compareTo(interval) <= 0) {
            throw new InvalidConfigException(
                    "'"
                            + HEARTBEAT_TIMEOUT.key()
                            + "' ("
                            + HEARTBEAT_TIMEOUT.format(timeout)
                            + ") must be longer than '"
                            + HEARTBEAT_INTERVAL.key()
                            + "' ("
                            + HEARTBEAT_INTERVAL.format(interval)
                            + "), or every server expires between two heartbeats; raise the"
                            + " timeout (e.g. 4 x the interval) or lower the interval");
        }
    }

    /**
     * Both options, validated together.
     *
     * @throws InvalidConfigException as {@link #validate} does
     */
    public static Settings from(Configuration conf) {
        validate(conf);
        return new Settings(
                conf.get(HEARTBEAT_INTERVAL), conf.get(HEARTBEAT_TIMEOUT), conf.get(PROBE));
    }

    /**
     * Validated liveness settings.
     *
     * @param interval the heartbeat interval (also the coordinator's expiry check period)
     * @param timeout the heartbeat timeout, longer than the interval
     * @param probe whether late servers' addresses are probed ({@link #PROBE})
     */
    public record Settings(Duration interval, Duration timeout, boolean probe) {
        /** A probe's connection attempt: short, as a refusal from a live host comes at once. */
        public Duration probeTimeout() {
            Duration second = Duration.ofSeconds(1);
            return interval.compareTo(second) < 0 ? interval : second;
        }
    }
}
