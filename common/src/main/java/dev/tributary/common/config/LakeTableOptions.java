package dev.tributary.common.config;

/**
 * Table properties that the store and the tiering coordinator both read, declared once here (the
 * module both see) so they can never disagree about a table.
 */
public final class LakeTableOptions {
    private LakeTableOptions() {}

    public static final ConfigOption<Boolean> DATALAKE_ENABLED =
            ConfigOptions.key("table.datalake.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Whether the table is tiered into the lake. If so, log retention never"
                                    + " deletes records at or above a bucket's tiered offset.");
}
