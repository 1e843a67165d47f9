package dev.tributary.coordinator.maintenance;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.ConfigOptions;
import dev.tributary.common.config.Configuration;
import java.time.Duration;
import java.util.List;

/** Table properties of lake maintenance (T38, T39); validated on CREATE and ALTER. */
public final class MaintenanceTableOptions {
    private MaintenanceTableOptions() {}

    public static final ConfigOption<Boolean> AUTO_COMPACTION =
            ConfigOptions.key("table.datalake.auto-compaction")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Whether the coordinator schedules compaction of the table's lake"
                                    + " files (T38). Off: files per bucket grow by one per round"
                                    + " with data; statistics and snapshot expiry still run.");

    public static final ConfigOption<Integer> COMPACTION_MAX_FILES =
            ConfigOptions.key("table.datalake.compaction.max-files")
                    .intType()
                    .check(n -> n >= 2 && n <= 10_000, "between 2 and 10000")
                    .defaultValue(5)
                    .withDescription(
                            "A lake bucket holding more live files than this (data files, plus"
                                    + " Iceberg delete files) is compacted down to at most this"
                                    + " many. Paimon: its sorted-run trigger for PK tables and"
                                    + " small-file merge for append tables.");

    public static final ConfigOption<Integer> COMPACTION_MAX_BUCKETS =
            ConfigOptions.key("table.datalake.compaction.max-buckets")
                    .intType()
                    .check(n -> n >= 1 && n <= 1024, "between 1 and 1024")
                    .defaultValue(16)
                    .withDescription(
                            "Budget of one compaction: at most this many lake buckets (those with"
                                    + " the most files first), bucket b of each partition counting"
                                    + " as one; the rest waits for the next one.");

    public static final ConfigOption<Duration> COMPACTION_INTERVAL =
            ConfigOptions.key("table.datalake.compaction.interval")
                    .durationType()
                    .check(d -> !d.isNegative(), "must be >= 0")
                    .defaultValue(Duration.ofMinutes(1))
                    .withDescription(
                            "Least time between two maintenance passes of the table (statistics,"
                                    + " compaction plan, snapshot expiry). A pass runs after a"
                                    + " round that wrote files, at most this often.");

    public static final ConfigOption<Integer> SNAPSHOT_NUM_RETAINED =
            ConfigOptions.key("table.datalake.snapshot.num-retained")
                    .intType()
                    .check(n -> n >= 1, "must be >= 1")
                    .defaultValue(10)
                    .withDescription(
                            "Lake snapshots always kept, newest first (T39); older ones go once"
                                    + " they are also older than"
                                    + " table.datalake.snapshot.time-retained. The newest tiering"
                                    + " snapshot is always kept.");

    public static final ConfigOption<Duration> SNAPSHOT_TIME_RETAINED =
            ConfigOptions.key("table.datalake.snapshot.time-retained")
                    .durationType()
                    .check(d -> !d.isNegative(), "must be >= 0")
                    .defaultValue(Duration.ofHours(1))
                    .withDescription(
                            "Lake snapshots younger than this are kept (T39), so readers can"
                                    + " time-travel that far back.");

    public static List<ConfigOption<?>> all() {
        return List.of(
                AUTO_COMPACTION,
                COMPACTION_MAX_FILES,
                COMPACTION_MAX_BUCKETS,
                COMPACTION_INTERVAL,
                SNAPSHOT_NUM_RETAINED,
                SNAPSHOT_TIME_RETAINED);
    }

    /** A table's maintenance settings, read from its properties. */
    public record Settings(
            boolean autoCompaction,
            int maxFiles,
            int maxBuckets,
            Duration interval,
            int numRetained,
            Duration timeRetained) {
        public static Settings of(Configuration tableOptions) {
            return new Settings(
                    tableOptions.get(AUTO_COMPACTION),
                    tableOptions.get(COMPACTION_MAX_FILES),
                    tableOptions.get(COMPACTION_MAX_BUCKETS),
                    tableOptions.get(COMPACTION_INTERVAL),
                    tableOptions.get(SNAPSHOT_NUM_RETAINED),
                    tableOptions.get(SNAPSHOT_TIME_RETAINED));
        }
    }
}
