package dev.tributary.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.common.exception.InvalidInputException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigurationTest {
    private static final ConfigOption<Duration> FRESHNESS =
            ConfigOptions.key("table.datalake.freshness")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(3))
                    .withDescription("How often the lake copy is refreshed.");
    private static final ConfigOption<Integer> BUCKETS =
            ConfigOptions.key("bucket.num")
                    .intType()
                    .check(n -> n >= 1, "must be at least 1")
                    .defaultValue(1)
                    .withDescription("Number of buckets.");

    enum Policy {
        FIFO,
        DEADLINE
    }

    private static final ConfigOption<Policy> POLICY =
            ConfigOptions.key("tiering.queue.policy")
                    .enumType(Policy.class)
                    .defaultValue(Policy.DEADLINE)
                    .withDescription("Queue policy.");

    @Test
    void defaultsApplyWhenUnset() {
        Configuration conf = new Configuration();
        assertThat(conf.get(FRESHNESS)).isEqualTo(Duration.ofMinutes(3));
        assertThat(conf.getOptional(FRESHNESS)).isEmpty();
        assertThat(FRESHNESS.description()).isEqualTo("How often the lake copy is refreshed.");
    }

    @Test
    void parsesDurationsInEveryUnit() {
        assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse("3min")).isEqualTo(Duration.ofMinutes(3));
        assertThat(Durations.parse("3 m")).isEqualTo(Duration.ofMinutes(3));
        assertThat(Durations.parse("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(Durations.parse("7d")).isEqualTo(Duration.ofDays(7));
        assertThat(Durations.parse("250")).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void formatsDurationsInTheirShortestExactForm() {
        assertThat(Durations.format(Duration.ofMinutes(3))).isEqualTo("3min");
        assertThat(Durations.format(Duration.ofSeconds(90))).isEqualTo("90s");
        assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(Durations.format(Duration.ofDays(7))).isEqualTo("7d");
        for (String s : new String[] {"1ms", "2s", "5min", "3h", "2d", "0s"}) {
            assertThat(Durations.format(Durations.parse(s))).isEqualTo(s);
        }
    }

    @Test
    void invalidValueNamesKeyValueAndExpectedForm() {
        Configuration conf = Configuration.fromMap(Map.of("table.datalake.freshness", "abc"));
        assertThatThrownBy(() -> conf.get(FRESHNESS))
                .isInstanceOf(InvalidConfigException.class)
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("'abc'")
                .hasMessageContaining("'table.datalake.freshness'")
                .hasMessageContaining("a duration such as");
    }

    @Test
    void checkedOptionRejectsOutOfRangeValues() {
        Configuration conf = Configuration.fromMap(Map.of("bucket.num", "0"));
        assertThatThrownBy(() -> conf.get(BUCKETS))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("'bucket.num'")
                .hasMessageContaining("must be at least 1");
        assertThat(Configuration.fromMap(Map.of("bucket.num", "8")).get(BUCKETS)).isEqualTo(8);
    }

    @Test
    void enumOptionsAreCaseInsensitiveAndListTheirValues() {
        assertThat(Configuration.fromMap(Map.of("tiering.queue.policy", "FiFo")).get(POLICY))
                .isEqualTo(Policy.FIFO);
        assertThatThrownBy(
                        () ->
                                Configuration.fromMap(Map.of("tiering.queue.policy", "lifo"))
                                        .get(POLICY))
                .hasMessageContaining("one of fifo, deadline");
    }

    @Test
    void setWritesTheFormattedValue() {
        Configuration conf = new Configuration().set(FRESHNESS, Duration.ofSeconds(30));
        assertThat(conf.toMap()).containsEntry("table.datalake.freshness", "30s");
        assertThat(conf.get(FRESHNESS)).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void memorySizes() {
        assertThat(MemorySize.parse("64kb").bytes()).isEqualTo(64 * 1024);
        assertThat(MemorySize.parse("128mb")).isEqualTo(MemorySize.ofMebiBytes(128));
        assertThat(MemorySize.parse("1gb").toString()).isEqualTo("1gb");
        assertThatThrownBy(() -> MemorySize.parse("12 parsecs"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
