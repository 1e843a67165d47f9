package dev.tributary.client;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.ConfigOptions;
import dev.tributary.common.config.MemorySize;
import java.time.Duration;
import java.util.List;

/** Options of a {@link Connection} and the writers it creates. */
public final class ClientOptions {
    private ClientOptions() {}

    public static final ConfigOption<Duration> REQUEST_TIMEOUT =
            ConfigOptions.key("client.request.timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(60))
                    .withDescription(
                            "Deadline of one unary call; a call that exceeds it fails with a"
                                    + " RetriableException.");

    public static final ConfigOption<MemorySize> WRITER_BATCH_SIZE =
            ConfigOptions.key("client.writer.batch-size")
                    .memoryType()
                    .check(s -> s.bytes() >= 1024, "at least 1kb")
                    .defaultValue(MemorySize.parse("512kb"))
                    .withDescription(
                            "A bucket's batch is sent once it holds this many bytes (or the linger"
                                    + " time has passed, or flush is called).");

    public static final ConfigOption<Duration> WRITER_LINGER =
            ConfigOptions.key("client.writer.linger")
                    .durationType()
                    .defaultValue(Duration.ofMillis(5))
                    .withDescription(
                            "How long a non-full batch waits for more rows before it is sent.");

    public static final ConfigOption<MemorySize> WRITER_BUFFER_MEMORY =
            ConfigOptions.key("client.writer.buffer-memory")
                    .memoryType()
                    .check(s -> s.bytes() >= 4096, "at least 4kb")
                    .defaultValue(MemorySize.parse("32mb"))
                    .withDescription(
                            "Bytes of rows a writer holds before they are acknowledged; append and"
                                    + " upsert block when it is full (back-pressure).");

    public static final ConfigOption<Integer> WRITER_RETRIES =
            ConfigOptions.key("client.writer.retries")
                    .intType()
                    .check(n -> n >= 0, ">= 0")
                    .defaultValue(30)
                    .withDescription(
                            "How often a batch is re-sent after a RetriableException before its"
                                    + " rows fail. With the default backoffs about 27 s of"
                                    + " retries: longer than a leader's failover after a silent"
                                    + " server's heartbeat timeout.");

    public static final ConfigOption<Duration> WRITER_RETRY_BACKOFF =
            ConfigOptions.key("client.writer.retry-backoff")
                    .durationType()
                    .defaultValue(Duration.ofMillis(100))
                    .withDescription(
                            "Delay before the first retry of a batch; doubles per retry, up to"
                                    + " client.writer.retry-backoff.max.");

    public static final ConfigOption<Duration> WRITER_RETRY_BACKOFF_MAX =
            ConfigOptions.key("client.writer.retry-backoff.max")
                    .durationType()
                    .check(d -> d.toMillis() >= 1, "at least 1ms")
                    .defaultValue(Duration.ofSeconds(1))
                    .withDescription(
                            "Longest delay between two retries of a batch: a write waiting for a"
                                    + " bucket's new leader is re-sent at most this long after"
                                    + " the leader moved (Kafka's retry.backoff.max.ms).");

    public static final ConfigOption<Boolean> WRITER_IDEMPOTENCE =
            ConfigOptions.key("client.writer.idempotence")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Each writer sends its batches with a writer id and a sequence number"
                                    + " per bucket, so a batch re-sent after an ambiguous failure"
                                    + " (timeout, lost connection, server restart) is written"
                                    + " once. false: a retry may write a batch twice.");

    public static List<ConfigOption<?>> all() {
        return List.of(
                WRITER_IDEMPOTENCE,
                REQUEST_TIMEOUT,
                WRITER_BATCH_SIZE,
                WRITER_LINGER,
                WRITER_BUFFER_MEMORY,
                WRITER_RETRIES,
                WRITER_RETRY_BACKOFF,
                WRITER_RETRY_BACKOFF_MAX);
    }
}
