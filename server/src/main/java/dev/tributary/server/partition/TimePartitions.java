package dev.tributary.server.partition;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.TableOptions;
import dev.tributary.common.config.TableOptions.PartitionTimeUnit;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.types.DataTypeRoot;
import dev.tributary.common.types.TableDescriptor;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The auto-partitioning rule of one table (T31) as pure functions of an instant: which partitions
 * should exist ahead, and which are past retention. Units begin at local hours, midnights, first
 * days of months and years in the table's time zone, so a day is the local day even when it has 23
 * or 25 hours (DST); an hour that a DST change skips has no partition, and one it repeats maps to
 * one partition. Stateless and thread safe.
 */
public final class TimePartitions {
    private final String key;
    private final DataTypeRoot type;
    private final boolean onlyKey;
    private final PartitionTimeUnit unit;
    private final ZoneId zone;
    private final int numPrecreate;
    private final int numRetention;
    private final DateTimeFormatter format;

    private TimePartitions(
            String key,
            DataTypeRoot type,
            boolean onlyKey,
            PartitionTimeUnit unit,
            ZoneId zone,
            int numPrecreate,
            int numRetention) {
        this.key = key;
        this.type = type;
        this.onlyKey = onlyKey;
        this.unit = unit;
        this.zone = zone;
        this.numPrecreate = numPrecreate;
        this.numRetention = numRetention;
        this.format = DateTimeFormatter.ofPattern(pattern(unit, type));
    }

    /**
     * The table's rule, or empty when auto-partitioning is off.
     *
     * @throws InvalidInputException when the options do not fit the table (no such partition
     *     column, a type that cannot hold the unit, a bad value)
     */
    public static Optional<TimePartitions> of(TableDescriptor table) {
        Configuration conf = Configuration.fromMap(table.properties());
        if (!conf.get(TableOptions.AUTO_PARTITION_ENABLED)) {
            return Optional.empty();
        }
        if (!table.isPartitioned()) {
            throw new InvalidInputException(
                    "'"
                            + TableOptions.AUTO_PARTITION_ENABLED.key()
                            + "' needs a partitioned table: add PARTITIONED BY (<time column>)");
        }
        String key = conf.get(TableOptions.AUTO_PARTITION_KEY);
        if (key.isEmpty()) {
            if (table.partitionKeys().size() != 1) {
                throw new InvalidInputException(
                        "the table has partition keys "
                                + table.partitionKeys()
                                + "; name the time column with '"
                                + TableOptions.AUTO_PARTITION_KEY.key()
                                + "'");
            }
            key = table.partitionKeys().get(0);
        } else if (!table.partitionKeys().contains(key)) {
            throw new InvalidInputException(
                    "'"
                            + TableOptions.AUTO_PARTITION_KEY.key()
                            + "' is '"
                            + key
                            + "', which is not one of the partition keys "
                            + table.partitionKeys());
        }
        DataTypeRoot type = table.schema().typeAt(table.schema().indexOf(key)).root();
        PartitionTimeUnit unit = conf.get(TableOptions.AUTO_PARTITION_TIME_UNIT);
        if (type == DataTypeRoot.DATE && unit == PartitionTimeUnit.HOUR) {
            throw new InvalidInputException(
                    "partition column '"
                            + key
                            + "' is a DATE and cannot hold hours; use a STRING or BIGINT column for"
                            + " time-unit HOUR");
        }
        return Optional.of(
                new TimePartitions(
                        key,
                        type,
                        table.partitionKeys().size() == 1,
                        unit,
                        ZoneId.of(conf.get(TableOptions.AUTO_PARTITION_TIME_ZONE)),
                        conf.get(TableOptions.AUTO_PARTITION_NUM_PRECREATE),
                        conf.get(TableOptions.AUTO_PARTITION_NUM_RETENTION)));
    }

    /** The time column. */
    public String key() {
        return key;
    }

    /**
     * The partitions that should exist at {@code now}: the current unit and the next ones, {@code
     * num-precreate} in all. None for a table with several partition columns.
     */
    public List<PartitionSpec> toPrecreate(Instant now) {
        List<PartitionSpec> out = new ArrayList<>();
        if (!onlyKey) {
            return out;
        }
        for (int i = 0; i < numPrecreate; i++) {
            PartitionSpec spec = PartitionSpec.of(key, format(unitStart(now, i)));
            if (!out.contains(spec)) {
                out.add(spec);
            }
        }
        return out;
    }

    /** The value of the time column for the unit that holds {@code at}. */
    public String valueAt(Instant at) {
        return format(unitStart(at, 0));
    }

    /**
     * True when {@code partition} lies before the retained units at {@code now}: more than {@code
     * num-retention} units before the current one. Partitions whose time value does not parse are
     * never expired (they are not the rule's).
     */
    public boolean expired(PartitionSpec partition, Instant now) {
        if (numRetention == 0) {
            return false;
        }
        String value = partition.value(key);
        Optional<LocalDateTime> start = value == null ? Optional.empty() : parse(value);
        return start.isPresent() && start.get().isBefore(unitStart(now, -numRetention));
    }

    /** The local start of the unit {@code offset} units after the one holding {@code at}. */
    private LocalDateTime unitStart(Instant at, int offset) {
        ZonedDateTime z = at.atZone(zone);
        return switch (unit) {
            // hours count on the time line, so a skipped hour has no partition
            case HOUR -> z.truncatedTo(ChronoUnit.HOURS).plusHours(offset).toLocalDateTime();
            case DAY -> z.toLocalDate().plusDays(offset).atStartOfDay();
            case MONTH -> z.toLocalDate().withDayOfMonth(1).plusMonths(offset).atStartOfDay();
            case YEAR -> z.toLocalDate().withDayOfYear(1).plusYears(offset).atStartOfDay();
        };
    }

    private String format(LocalDateTime unitStart) {
        return type == DataTypeRoot.DATE
                ? unitStart.toLocalDate().toString()
                : format.format(unitStart);
    }

    private Optional<LocalDateTime> parse(String value) {
        try {
            if (type == DataTypeRoot.DATE) {
                return Optional.of(LocalDate.parse(value).atStartOfDay());
            }
            return Optional.of(
                    switch (unit) {
                        case HOUR -> LocalDateTime.parse(value, format);
                        case DAY -> LocalDate.parse(value, format).atStartOfDay();
                        case MONTH ->
                                java.time.YearMonth.parse(value, format).atDay(1).atStartOfDay();
                        case YEAR -> java.time.Year.parse(value, format).atDay(1).atStartOfDay();
                    });
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static String pattern(PartitionTimeUnit unit, DataTypeRoot type) {
        boolean numeric = type == DataTypeRoot.INT || type == DataTypeRoot.BIGINT;
        return switch (unit) {
            case HOUR -> numeric ? "uuuuMMddHH" : "uuuu-MM-dd-HH";
            case DAY -> numeric ? "uuuuMMdd" : "uuuu-MM-dd";
            case MONTH -> numeric ? "uuuuMM" : "uuuu-MM";
            case YEAR -> "uuuu";
        };
    }
}
