package dev.tributary.planner;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.ConfigOptions;
import dev.tributary.common.config.Configuration;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Table properties the tiering planner reads (T44). */
public final class PlannerOptions {
    private PlannerOptions() {}

    public static final ConfigOption<Duration> LAG_TARGET =
            ConfigOptions.key("table.datalake.lag-target")
                    .durationType()
                    .check(d -> !d.isNegative() && !d.isZero(), "must be > 0")
                    .noDefaultValue()
                    .withDescription(
                            "The lake lag this table should stay under at p99 (age of the oldest"
                                    + " record not yet in the lake): tributary plan and the web"
                                    + " console judge the table against it. Default: twice"
                                    + " table.datalake.freshness, since a table whose rounds take"
                                    + " a fraction of its freshness already peaks near freshness"
                                    + " + 2 rounds.");

    /** Every table option declared here. */
    public static List<ConfigOption<?>> tableOptions() {
        return List.of(LAG_TARGET);
    }

    /**
     * Checks the planner's options present in a table's properties.
     *
     * @throws dev.tributary.common.exception.InvalidInputException naming the key and the form
     */
    public static void validate(Map<String, String> properties) {
        Configuration.fromMap(properties).validate(tableOptions());
    }

    /** The table's lag target, or {@code null} for the default. */
    public static Duration lagTarget(Map<String, String> properties) {
        return Configuration.fromMap(properties).getOptional(LAG_TARGET).orElse(null);
    }
}
