package dev.tributary.coordinator.maintenance;

import dev.tributary.common.config.Configuration;
import java.time.Duration;

/**
 * Lake maintenance settings of the coordinator, parsed once.
 *
 * @param jobSlots {@link MaintenanceOptions#JOB_SLOTS}
 * @param timeout {@link MaintenanceOptions#TIMEOUT}
 */
public record MaintenanceConfig(int jobSlots, Duration timeout) {
    public static MaintenanceConfig from(Configuration conf) {
        return new MaintenanceConfig(
                conf.get(MaintenanceOptions.JOB_SLOTS), conf.get(MaintenanceOptions.TIMEOUT));
    }

    public static MaintenanceConfig defaults() {
        return from(new Configuration());
    }
}
