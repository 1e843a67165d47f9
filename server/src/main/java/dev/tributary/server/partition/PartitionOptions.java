package dev.tributary.server.partition;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.ConfigOptions;
import java.time.Duration;

/**
 * The server's option of partitioned tables (T31). The per-table partition options ({@code
 * table.partition.*}, {@code table.auto-partition.*}) are declared with every other table option in
 * {@link dev.tributary.common.config.TableOptions}.
 */
public final class PartitionOptions {
    private PartitionOptions() {}

    public static final ConfigOption<Duration> CHECK_INTERVAL =
            ConfigOptions.key("server.auto-partition.check-interval")
                    .durationType()
                    .check(d -> d.toMillis() >= 10, "at least 10ms")
                    .defaultValue(Duration.ofMinutes(1))
                    .withDescription(
                            "How often the server pre-creates and expires the partitions of"
                                    + " auto-partitioned tables, and removes dropping partitions"
                                    + " that are tiered (T31, T33).");
}
