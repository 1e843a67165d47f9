package dev.tributary.storage.log;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.ConfigOptions;
import dev.tributary.common.config.MemorySize;
import java.time.Duration;

/**
 * Server-wide options of the bucket log. Its per-table options ({@code table.log.*}) are declared
 * with every other table option in {@link dev.tributary.common.config.TableOptions}.
 */
public final class LogOptions {
    private LogOptions() {}

    public static final ConfigOption<MemorySize> SEGMENT_SIZE =
            ConfigOptions.key("log.segment.size")
                    .memoryType()
                    .check(s -> s.bytes() >= 1024 && s.bytes() <= Integer.MAX_VALUE, "1kb..2gb")
                    .defaultValue(MemorySize.ofMebiBytes(128))
                    .withDescription(
                            "A bucket's log rolls to a new segment file when the active one would"
                                    + " grow past this size.");

    public static final ConfigOption<MemorySize> INDEX_INTERVAL =
            ConfigOptions.key("log.index.interval")
                    .memoryType()
                    .defaultValue(new MemorySize(4096))
                    .withDescription(
                            "Bytes of log between two entries of the sparse offset index; smaller"
                                    + " makes reads find their start faster, larger keeps the"
                                    + " index smaller.");

    public static final ConfigOption<FlushPolicy> FLUSH_POLICY =
            ConfigOptions.key("log.flush.policy")
                    .enumType(FlushPolicy.class)
                    .defaultValue(FlushPolicy.FSYNC)
                    .withDescription(
                            "fsync: acknowledge appends after fsync, with group commit across"
                                    + " concurrent appends; os-cache: acknowledge once written to"
                                    + " the OS (loses recent appends on a machine crash).");

    public static final ConfigOption<Duration> WRITER_STATE_EXPIRATION =
            ConfigOptions.key("server.writer.state-expiration")
                    .durationType()
                    .check(d -> d.toMillis() > 0, "must be positive")
                    .defaultValue(Duration.ofDays(7))
                    .withDescription(
                            "How long a bucket remembers an idempotent writer's last batch after"
                                    + " that batch (store clock). Within it a retried batch is"
                                    + " acknowledged without being appended again; a writer idle"
                                    + " longer is forgotten and its next batch is accepted as"
                                    + " new.");
}
