package dev.tributary.flink.catalog;

import java.time.Duration;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * Table options of the Tributary connector, as {@code WITH (...)} of CREATE TABLE or as dynamic
 * table options ({@code /*+ OPTIONS('scan.mode' = 'batch') * /}). Every other option that starts
 * with {@code table.} is a Tributary table property (e.g. {@code table.datalake.enabled}).
 */
public final class TributaryTableOptions {
    private TributaryTableOptions() {}

    public static final ConfigOption<Integer> BUCKET_NUM =
            ConfigOptions.key("bucket.num")
                    .intType()
                    .noDefaultValue()
                    .withDescription(
                            "Buckets of a new table; DISTRIBUTED BY ... INTO n BUCKETS says the"
                                    + " same. Default 1.");

    public static final ConfigOption<String> BUCKET_KEY =
            ConfigOptions.key("bucket.key")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Comma-separated bucket key of a new table (default: the primary"
                                    + " key); DISTRIBUTED BY HASH(k) says the same.");

    /** How a SELECT reads the table. */
    public enum ScanMode {
        /** Batch queries read to the end offsets taken at start; streaming queries follow. */
        AUTO,
        /** Always end at the end offsets taken at start. */
        BATCH,
        /** Always follow the log after the union read. */
        STREAMING
    }

    public static final ConfigOption<ScanMode> SCAN_MODE =
            ConfigOptions.key("scan.mode")
                    .enumType(ScanMode.class)
                    .defaultValue(ScanMode.AUTO)
                    .withDescription(
                            "auto: a batch job reads the union up to the end offsets taken at"
                                    + " start, a streaming job then follows the log; batch or"
                                    + " streaming force one of them.");

    public static final ConfigOption<Duration> SCAN_POLL_INTERVAL =
            ConfigOptions.key("scan.poll-interval")
                    .durationType()
                    .defaultValue(Duration.ofMillis(100))
                    .withDescription(
                            "How long a following reader that has caught up waits before it asks"
                                    + " the server for new records again.");

    public static final ConfigOption<Duration> SCAN_PARTITION_DISCOVERY_INTERVAL =
            ConfigOptions.key("scan.partition.discovery-interval")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription(
                            "How often a streaming read of a partitioned table lists its"
                                    + " partitions to read the ones created after the query"
                                    + " started. A batch read reads the partitions that exist"
                                    + " when it starts.");

    public static final ConfigOption<Integer> SCAN_BATCH_RECORDS =
            ConfigOptions.key("scan.fetch-records")
                    .intType()
                    .defaultValue(1024)
                    .withDescription("Records a reader hands to Flink per fetch.");
}
