package dev.tributary.server.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataType;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** T31: auto-partitioning as a function of the server's clock, across days, months and DST. */
class TimePartitionsTest {

    private static TimePartitions rule(DataType type, Map<String, String> options) {
        Schema s = Schema.newBuilder().column("id", DataTypes.BIGINT()).column("dt", type).build();
        TableDescriptor.Builder b =
                TableDescriptor.builder(s)
                        .partitionKeys("dt")
                        .property("table.auto-partition.enabled", "true");
        options.forEach(b::property);
        return TimePartitions.of(b.build()).orElseThrow();
    }

    private static List<String> names(List<PartitionSpec> specs) {
        return specs.stream().map(PartitionSpec::name).toList();
    }

    @Test
    void t31_daysBeginAtMidnightOfTheTableZoneAndRetentionKeepsNumRetentionPastDays() {
        TimePartitions daily = rule(DataTypes.STRING(), Map.of());
        ManualClock clock = new ManualClock(Instant.parse("2026-11-30T23:59:59Z").toEpochMilli());
        Instant now = Instant.ofEpochMilli(clock.currentTimeMillis());
        assertThat(names(daily.toPrecreate(now))).containsExactly("dt=2026-11-30", "dt=2026-12-01");
        clock.advance(Duration.ofSeconds(2)); // the day boundary
        now = Instant.ofEpochMilli(clock.currentTimeMillis());
        assertThat(names(daily.toPrecreate(now))).containsExactly("dt=2026-12-01", "dt=2026-12-02");
        // the default retention (7): 2026-11-24 .. 2026-11-30 stay, 2026-11-23 goes
        assertThat(daily.expired(PartitionSpec.of("dt", "2026-11-24"), now)).isFalse();
        assertThat(daily.expired(PartitionSpec.of("dt", "2026-11-23"), now)).isTrue();
        assertThat(daily.expired(PartitionSpec.of("dt", "not-a-day"), now))
                .as("a partition outside the rule is never expired")
                .isFalse();
        TimePartitions keepAll =
                rule(DataTypes.STRING(), Map.of("table.auto-partition.num-retention", "0"));
        assertThat(keepAll.expired(PartitionSpec.of("dt", "1999-01-01"), now)).isFalse();
    }

    @Test
    void t31_aDayOfADstChangeIsTheLocalDay() {
        TimePartitions berlin =
                rule(
                        DataTypes.STRING(),
                        Map.of(
                                "table.auto-partition.time-zone", "Europe/Berlin",
                                "table.auto-partition.num-precreate", "1"));
        // spring forward on 2026-03-29: midnight is 23:00 UTC the day before (CET, +01:00) ...
        assertThat(berlin.valueAt(Instant.parse("2026-03-28T22:59:59Z"))).isEqualTo("2026-03-28");
        assertThat(berlin.valueAt(Instant.parse("2026-03-28T23:00:00Z"))).isEqualTo("2026-03-29");
        // ... and the next midnight is 22:00 UTC (CEST, +02:00): the day had 23 hours
        assertThat(berlin.valueAt(Instant.parse("2026-03-29T21:59:59Z"))).isEqualTo("2026-03-29");
        assertThat(berlin.valueAt(Instant.parse("2026-03-29T22:00:00Z"))).isEqualTo("2026-03-30");
        // fall back on 2026-10-25: that day has 25 hours
        assertThat(berlin.valueAt(Instant.parse("2026-10-24T21:59:59Z"))).isEqualTo("2026-10-24");
        assertThat(berlin.valueAt(Instant.parse("2026-10-24T22:00:00Z"))).isEqualTo("2026-10-25");
        assertThat(berlin.valueAt(Instant.parse("2026-10-25T22:59:59Z"))).isEqualTo("2026-10-25");
        assertThat(berlin.valueAt(Instant.parse("2026-10-25T23:00:00Z"))).isEqualTo("2026-10-26");
    }

    @Test
    void t31_hoursSkippedByDstHaveNoPartitionAndRepeatedOnesShareOne() {
        TimePartitions hourly =
                rule(
                        DataTypes.STRING(),
                        Map.of(
                                "table.auto-partition.time-zone", "Europe/Berlin",
                                "table.auto-partition.time-unit", "HOUR",
                                "table.auto-partition.num-precreate", "3",
                                "table.auto-partition.num-retention", "2"));
        ManualClock clock = new ManualClock(Instant.parse("2026-03-29T00:30:00Z").toEpochMilli());
        Instant now = Instant.ofEpochMilli(clock.currentTimeMillis()); // 01:30 CET
        assertThat(names(hourly.toPrecreate(now)))
                .containsExactly("dt=2026-03-29-01", "dt=2026-03-29-03", "dt=2026-03-29-04");
        clock.advance(Duration.ofHours(1)); // 03:30 CEST
        now = Instant.ofEpochMilli(clock.currentTimeMillis());
        assertThat(hourly.valueAt(now)).isEqualTo("2026-03-29-03");
        // two past hours kept: 01 and 00 (02 never existed)
        assertThat(hourly.expired(PartitionSpec.of("dt", "2026-03-29-01"), now)).isFalse();
        assertThat(hourly.expired(PartitionSpec.of("dt", "2026-03-28-23"), now)).isTrue();

        // fall back: 02:00-03:00 happens twice and maps to one partition
        Instant firstTwo = Instant.parse("2026-10-25T00:30:00Z");
        Instant secondTwo = Instant.parse("2026-10-25T01:30:00Z");
        assertThat(hourly.valueAt(firstTwo)).isEqualTo("2026-10-25-02");
        assertThat(hourly.valueAt(secondTwo)).isEqualTo("2026-10-25-02");
        assertThat(names(hourly.toPrecreate(firstTwo)))
                .containsExactly("dt=2026-10-25-02", "dt=2026-10-25-03");
    }

    @Test
    void t31_valuesFollowTheColumnType() {
        Instant at = Instant.parse("2026-12-01T10:15:00Z");
        assertThat(rule(DataTypes.INT(), Map.of()).valueAt(at)).isEqualTo("20261201");
        assertThat(
                        rule(DataTypes.BIGINT(), Map.of("table.auto-partition.time-unit", "HOUR"))
                                .valueAt(at))
                .isEqualTo("2026120110");
        assertThat(rule(DataTypes.DATE(), Map.of()).valueAt(at)).isEqualTo("2026-12-01");
        assertThat(
                        rule(DataTypes.DATE(), Map.of("table.auto-partition.time-unit", "MONTH"))
                                .valueAt(at))
                .isEqualTo("2026-12-01");
        TimePartitions monthly =
                rule(DataTypes.STRING(), Map.of("table.auto-partition.time-unit", "MONTH"));
        assertThat(names(monthly.toPrecreate(at))).containsExactly("dt=2026-12", "dt=2027-01");
        assertThat(monthly.expired(PartitionSpec.of("dt", "2026-04"), at)).isTrue();
        assertThat(monthly.expired(PartitionSpec.of("dt", "2026-05"), at)).isFalse();
        TimePartitions yearly =
                rule(DataTypes.INT(), Map.of("table.auto-partition.time-unit", "YEAR"));
        assertThat(names(yearly.toPrecreate(at))).containsExactly("dt=2026", "dt=2027");
    }

    @Test
    void t31_optionsThatDoNotFitTheTableAreClearErrors() {
        assertThatThrownBy(
                        () ->
                                rule(
                                        DataTypes.DATE(),
                                        Map.of("table.auto-partition.time-unit", "HOUR")))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("cannot hold hours");
        assertThatThrownBy(
                        () ->
                                rule(
                                        DataTypes.STRING(),
                                        Map.of("table.auto-partition.time-zone", "Mars/Olympus")))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("table.auto-partition.time-zone");
        Schema two =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column("dt", DataTypes.STRING())
                        .column("region", DataTypes.STRING())
                        .build();
        TableDescriptor noKey =
                TableDescriptor.builder(two)
                        .partitionKeys("dt", "region")
                        .property("table.auto-partition.enabled", "true")
                        .build();
        assertThatThrownBy(() -> TimePartitions.of(noKey))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("table.auto-partition.key");
        TimePartitions withKey =
                TimePartitions.of(
                                TableDescriptor.builder(two)
                                        .partitionKeys("dt", "region")
                                        .property("table.auto-partition.enabled", "true")
                                        .property("table.auto-partition.key", "dt")
                                        .build())
                        .orElseThrow();
        Instant at = Instant.parse("2026-12-10T00:00:00Z");
        assertThat(withKey.toPrecreate(at))
                .as("other partition values are unknown: nothing is pre-created")
                .isEmpty();
        assertThat(withKey.expired(PartitionSpec.parse("dt=2026-12-01/region=eu"), at)).isTrue();
        TableDescriptor unpartitioned =
                TableDescriptor.builder(two)
                        .property("table.auto-partition.enabled", "true")
                        .build();
        assertThatThrownBy(() -> TimePartitions.of(unpartitioned))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("needs a partitioned table");
    }
}
