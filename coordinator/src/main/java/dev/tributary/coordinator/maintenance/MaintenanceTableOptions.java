package dev.tributary.coordinator.maintenance;

import dev.tributary.common.config.TableConfig;
import dev.tributary.common.config.TableOptions;
import java.time.Duration;

/**
 * The maintenance view (T38, T39) of a table's options, which are declared in {@link TableOptions}.
 */
public final class MaintenanceTableOptions {
    private MaintenanceTableOptions() {}

    /** A table's maintenance settings, read from its parsed options. */
    public record Settings(
            boolean autoCompaction,
            int maxFiles,
            int maxBuckets,
            Duration interval,
            int numRetained,
            Duration timeRetained) {
        public static Settings of(TableConfig tableOptions) {
            return new Settings(
                    tableOptions.get(TableOptions.AUTO_COMPACTION),
                    tableOptions.get(TableOptions.COMPACTION_MAX_FILES),
                    tableOptions.get(TableOptions.COMPACTION_MAX_BUCKETS),
                    tableOptions.get(TableOptions.COMPACTION_INTERVAL),
                    tableOptions.get(TableOptions.SNAPSHOT_NUM_RETAINED),
                    tableOptions.get(TableOptions.SNAPSHOT_TIME_RETAINED));
        }
    }
}
