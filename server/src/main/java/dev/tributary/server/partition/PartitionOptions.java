package dev.tributary.server.partition;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.ConfigOptions;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;

/**
 * The options of partitioned tables (T30, T31): table properties and the server's check interval.
 * The server owns them: it creates partitions on first write and runs auto-partitioning on its
 * clock.
 */
public final class PartitionOptions {
    private PartitionOptions() {}

    /** Time units of auto-partitioning. */
    public enum TimeUnit {
        HOUR,
        DAY,
        MONTH,
        YEAR
    }

    public static final ConfigOption<Boolean> DYNAMIC_CREATE =
            ConfigOptions.key("table.partition.dynamic-create")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Whether a write to a partition that does not exist creates it (T30)."
                                    + " When false, such a write fails with PARTITION_NOT_FOUND"
                                    + " naming the partition and nothing of its batch is written;"
                                    + " add partitions with 'tributary partition add' or"
                                    + " auto-partitioning.");

    public static final ConfigOption<Boolean> AUTO_PARTITION_ENABLED =
            ConfigOptions.key("table.auto-partition.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Whether the server creates and expires the table's partitions by"
                                    + " time on its clock (T31), by the partition column"
                                    + " 'table.auto-partition.key'.");

    public static final ConfigOption<String> AUTO_PARTITION_KEY =
            ConfigOptions.key("table.auto-partition.key")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "The partition column that holds the time (STRING, INT, BIGINT or"
                                    + " DATE); may be left empty when the table has one partition"
                                    + " column. With several partition columns partitions are"
                                    + " only expired, not pre-created (the other values are not"
                                    + " known in advance).");

    public static final ConfigOption<TimeUnit> AUTO_PARTITION_TIME_UNIT =
            ConfigOptions.key("table.auto-partition.time-unit")
                    .enumType(TimeUnit.class)
                    .defaultValue(TimeUnit.DAY)
                    .withDescription(
                            "One partition per HOUR, DAY, MONTH or YEAR. Values: STRING columns"
                                    + " yyyy-MM-dd-HH, yyyy-MM-dd, yyyy-MM, yyyy; INT and BIGINT"
                                    + " columns yyyyMMddHH, yyyyMMdd, yyyyMM, yyyy; DATE columns"
                                    + " the first day of the unit (not HOUR).");

    public static final ConfigOption<Integer> AUTO_PARTITION_NUM_PRECREATE =
            ConfigOptions.key("table.auto-partition.num-precreate")
                    .intType()
                    .check(n -> n >= 0, ">= 0")
                    .defaultValue(2)
                    .withDescription(
                            "How many partitions exist ahead, counting the current one: 2 on"
                                    + " 2026-12-01 (DAY) means 2026-12-01 and 2026-12-02.");

    public static final ConfigOption<Integer> AUTO_PARTITION_NUM_RETENTION =
            ConfigOptions.key("table.auto-partition.num-retention")
                    .intType()
                    .check(n -> n >= 0, ">= 0")
                    .defaultValue(7)
                    .withDescription(
                            "How many past partitions are kept besides the current one; older ones"
                                    + " are dropped (for a lake-enabled table only once they are"
                                    + " tiered, T33). 0 keeps every partition.");

    public static final ConfigOption<String> AUTO_PARTITION_TIME_ZONE =
            ConfigOptions.key("table.auto-partition.time-zone")
                    .stringType()
                    .check(PartitionOptions::validZone, "a time zone id, e.g. UTC or Europe/Berlin")
                    .defaultValue("UTC")
                    .withDescription(
                            "The time zone in which hours, days, months and years begin for"
                                    + " auto-partitioning.");

    public static final ConfigOption<Duration> CHECK_INTERVAL =
            ConfigOptions.key("server.auto-partition.check-interval")
                    .durationType()
                    .check(d -> d.toMillis() >= 10, "at least 10ms")
                    .defaultValue(Duration.ofMinutes(1))
                    .withDescription(
                            "How often the server pre-creates and expires the partitions of"
                                    + " auto-partitioned tables, and removes dropping partitions"
                                    + " that are tiered (T31, T33).");

    /** The table properties declared here. */
    public static List<ConfigOption<?>> tableOptions() {
        return List.of(
                DYNAMIC_CREATE,
                AUTO_PARTITION_ENABLED,
                AUTO_PARTITION_KEY,
                AUTO_PARTITION_TIME_UNIT,
                AUTO_PARTITION_NUM_PRECREATE,
                AUTO_PARTITION_NUM_RETENTION,
                AUTO_PARTITION_TIME_ZONE);
    }

    private static boolean validZone(String id) {
        try {
            ZoneId.of(id);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }
}
