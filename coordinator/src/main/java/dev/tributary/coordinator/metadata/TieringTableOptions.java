package dev.tributary.coordinator.metadata;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.ConfigOptions;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.LakeTableOptions;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TablePath;
import dev.tributary.coordinator.maintenance.MaintenanceTableOptions;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Table properties that drive lake tiering; validated on CREATE and ALTER. */
public final class TieringTableOptions {
    private TieringTableOptions() {}

    /** The group used for tables that do not name one. */
    public static final String DEFAULT_GROUP = "default";

    /** Declared in common: the store reads it too. */
    public static final ConfigOption<Boolean> DATALAKE_ENABLED = LakeTableOptions.DATALAKE_ENABLED;

    public static final ConfigOption<Duration> DATALAKE_FRESHNESS =
            ConfigOptions.key("table.datalake.freshness")
                    .durationType()
                    .check(d -> !d.isNegative() && !d.isZero(), "must be > 0")
                    .defaultValue(Duration.ofMinutes(3))
                    .withDescription(
                            "Cadence of tiering rounds: the next round becomes pending this long"
                                    + " after the previous one committed; also the round ceiling"
                                    + " after which a round is force-finished.");

    public static final ConfigOption<String> DATALAKE_FORMAT =
            ConfigOptions.key("table.datalake.format")
                    .stringType()
                    .check(s -> s.equals("paimon") || s.equals("iceberg"), "one of paimon, iceberg")
                    .defaultValue("paimon")
                    .withDescription("Lake format of the table's lake copy.");

    public static final ConfigOption<String> TIERING_GROUP =
            ConfigOptions.key("table.datalake.tiering.group")
                    .stringType()
                    .check(TieringTableOptions::validGroup, "a name of letters, digits, _ or -")
                    .defaultValue(DEFAULT_GROUP)
                    .withDescription(
                            "Only tiering jobs of this group tier the table (T26); tables without"
                                    + " a group use the default group.");

    /** Every table option declared here. */
    public static List<ConfigOption<?>> all() {
        return List.of(DATALAKE_ENABLED, DATALAKE_FRESHNESS, DATALAKE_FORMAT, TIERING_GROUP);
    }

    /**
     * Checks every known option present in {@code properties}.
     *
     * @throws InvalidInputException naming the key, the bad value and the expected form
     */
    public static void validate(Map<String, String> properties) {
        Configuration conf = Configuration.fromMap(properties);
        conf.validate(all());
        conf.validate(MaintenanceTableOptions.all());
        String buckets = properties.get("bucket.num");
        if (buckets != null) {
            try {
                int n = Integer.parseInt(buckets.trim());
                if (n < 1) {
                    throw new NumberFormatException();
                }
            } catch (NumberFormatException e) {
                throw new InvalidInputException(
                        "invalid value '"
                                + buckets
                                + "' for 'bucket.num': expected an integer >= 1");
            }
        }
    }

    private static boolean validGroup(String s) {
        try {
            TablePath.validateName("group", s.toLowerCase(Locale.ROOT));
            return true;
        } catch (InvalidInputException e) {
            return false;
        }
    }
}
