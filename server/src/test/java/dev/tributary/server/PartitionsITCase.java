package dev.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.PartitionInfo;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.lookup.Lookuper;
import dev.tributary.client.scan.LogScanner;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.client.write.WriteResult;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.PartitionNotFoundException;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Partitioned tables on a real server over loopback (T30, T31): routing by partition then bucket,
 * creation on first write, the typed error without it, add/drop/list, recovery, and
 * auto-partitioning on the server's manual clock.
 */
class PartitionsITCase {
    private static final TablePath EVENTS = TablePath.of("shop", "events");
    private static final TablePath ORDERS = TablePath.of("shop", "orders");
    private static final Schema EVENT_SCHEMA =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("dt", DataTypes.STRING())
                    .column("page", DataTypes.STRING())
                    .build();

    @TempDir Path dir;
    private final ManualClock clock =
            new ManualClock(Instant.parse("2026-12-01T10:00:00Z").toEpochMilli());

    private TributaryServer start() {
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "-1");
        return TributaryServer.start(conf, clock, List.of());
    }

    @Test
    void t30_writesRouteByPartitionThenBucketAndCreateMissingPartitionsAndSurviveARestart()
            throws Exception {
        long firstId;
        try (TributaryServer server = start();
                Connection conn = Connection.open(server.rpcTarget())) {
            conn.admin().createDatabase("shop", false);
            conn.admin()
                    .createTable(
                            EVENTS,
                            TableDescriptor.builder(EVENT_SCHEMA)
                                    .partitionKeys("dt")
                                    .bucketCount(3)
                                    .bucketKeys("id")
                                    .build(),
                            false);
            List<CompletableFuture<WriteResult>> acks = new ArrayList<>();
            try (AppendWriter w = conn.appendWriter(EVENTS)) {
                for (long i = 0; i < 300; i++) {
                    acks.add(w.append(Row.of(i, "2026-12-0" + (1 + i % 3), "p" + i)));
                }
                w.flush();
            }
            for (int i = 0; i < acks.size(); i++) {
                assertThat(acks.get(i).join().partition()).isEqualTo("dt=2026-12-0" + (1 + i % 3));
            }
            List<PartitionInfo> parts = conn.admin().listPartitions(EVENTS);
            assertThat(parts)
                    .extracting(PartitionInfo::name)
                    .containsExactly("dt=2026-12-01", "dt=2026-12-02", "dt=2026-12-03");
            firstId = parts.get(0).partitionId();
            LogScanner scanner = conn.logScanner(EVENTS);
            Map<PartitionBucket, Long> ends = scanner.partitionEndOffsets();
            assertThat(ends).hasSize(9);
            assertThat(ends.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(300);
            for (PartitionInfo p : parts) {
                long rows = 0;
                for (int b = 0; b < 3; b++) {
                    for (LogRecord r : scanner.readAll(p.partitionId(), b)) {
                        assertThat("dt=" + r.row().getString(1)).isEqualTo(p.name());
                        rows++;
                    }
                }
                assertThat(rows).isEqualTo(100);
            }
            assertThatThrownBy(scanner::endOffsets)
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("is partitioned");
        }
        try (TributaryServer server = start();
                Connection conn = Connection.open(server.rpcTarget())) {
            List<PartitionInfo> parts = conn.admin().listPartitions(EVENTS);
            assertThat(parts).hasSize(3);
            assertThat(parts.get(0).partitionId()).isEqualTo(firstId);
            LogScanner scanner = conn.logScanner(EVENTS);
            assertThat(
                            scanner.partitionEndOffsets().values().stream()
                                    .mapToLong(Long::longValue)
                                    .sum())
                    .isEqualTo(300);
            PartitionInfo added =
                    conn.admin()
                            .createPartition(EVENTS, PartitionSpec.of("dt", "2026-12-09"), false);
            assertThat(added.partitionId()).isGreaterThan(parts.get(2).partitionId());
        }
    }

    @Test
    void t30_withoutDynamicCreationAWriteToAMissingPartitionFailsTypedAndWritesNothing() {
        try (TributaryServer server = start();
                Connection conn = Connection.open(server.rpcTarget())) {
            conn.admin().createDatabase("shop", false);
            conn.admin()
                    .createTable(
                            EVENTS,
                            TableDescriptor.builder(EVENT_SCHEMA)
                                    .partitionKeys("dt")
                                    .bucketCount(2)
                                    .bucketKeys("id")
                                    .property("table.partition.dynamic-create", "false")
                                    .build(),
                            false);
            conn.admin().createPartition(EVENTS, PartitionSpec.of("dt", "2026-12-01"), false);
            try (AppendWriter w = conn.appendWriter(EVENTS)) {
                w.append(Row.of(1L, "2026-12-01", "a"));
                w.append(Row.of(2L, "2026-12-01", "b"));
                w.flush();
                CompletableFuture<WriteResult> missing = w.append(Row.of(3L, "2026-12-05", "c"));
                assertThatThrownBy(w::flush)
                        .isInstanceOf(PartitionNotFoundException.class)
                        .hasMessageContaining("partition dt=2026-12-05 of table shop.events")
                        .hasMessageContaining("table.partition.dynamic-create=false")
                        .hasMessageContaining("nothing of the batch was written");
                assertThat(missing).isCompletedExceptionally();
            }
            assertThat(conn.admin().listPartitions(EVENTS))
                    .extracting(PartitionInfo::name)
                    .containsExactly("dt=2026-12-01");
            assertThat(
                            conn.logScanner(EVENTS).partitionEndOffsets().values().stream()
                                    .mapToLong(Long::longValue)
                                    .sum())
                    .isEqualTo(2);

            // add it, write, drop it: a table without the lake loses it at once
            conn.admin().createPartition(EVENTS, PartitionSpec.of("dt", "2026-12-05"), false);
            try (AppendWriter w = conn.appendWriter(EVENTS)) {
                w.append(Row.of(3L, "2026-12-05", "c"));
                w.flush();
            }
            var drop =
                    conn.admin()
                            .dropPartition(
                                    EVENTS, PartitionSpec.of("dt", "2026-12-05"), false, false)
                            .orElseThrow();
            assertThat(drop.removed()).isTrue();
            assertThat(conn.admin().listPartitions(EVENTS)).hasSize(1);
            try (AppendWriter w = conn.appendWriter(EVENTS)) {
                w.append(Row.of(4L, "2026-12-05", "d"));
                assertThatThrownBy(w::flush).isInstanceOf(PartitionNotFoundException.class);
            }
            assertThat(
                            conn.admin()
                                    .dropPartition(
                                            EVENTS,
                                            PartitionSpec.of("dt", "2026-12-05"),
                                            true,
                                            false))
                    .isEmpty();
        }
    }

    @Test
    void t30_primaryKeyPartitionsKeepTheirOwnKeysAndBadDefinitionsAreRefused() {
        Schema orders =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column("dt", DataTypes.DATE())
                        .column("amount", DataTypes.INT())
                        .primaryKey("id", "dt")
                        .build();
        try (TributaryServer server = start();
                Connection conn = Connection.open(server.rpcTarget())) {
            conn.admin().createDatabase("shop", false);
            assertThatThrownBy(
                            () ->
                                    conn.admin()
                                            .createTable(
                                                    ORDERS,
                                                    TableDescriptor.builder(
                                                                    Schema.newBuilder()
                                                                            .column(
                                                                                    "id",
                                                                                    DataTypes
                                                                                            .BIGINT())
                                                                            .column(
                                                                                    "dt",
                                                                                    DataTypes
                                                                                            .DATE())
                                                                            .primaryKey("id")
                                                                            .build())
                                                            .partitionKeys("dt")
                                                            .build(),
                                                    false))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("must be part of the primary key");
            assertThatThrownBy(
                            () ->
                                    conn.admin()
                                            .createTable(
                                                    ORDERS,
                                                    TableDescriptor.builder(orders)
                                                            .partitionKeys("dt")
                                                            .property(
                                                                    "table.auto-partition.enabled",
                                                                    "true")
                                                            .property(
                                                                    "table.auto-partition.time-unit",
                                                                    "HOUR")
                                                            .build(),
                                                    false))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("cannot hold hours");
            assertThat(conn.admin().listTables("shop")).isEmpty();

            conn.admin()
                    .createTable(
                            ORDERS,
                            TableDescriptor.builder(orders)
                                    .partitionKeys("dt")
                                    .bucketCount(2)
                                    .build(),
                            false);
            LocalDate d1 = LocalDate.of(2026, 12, 1);
            LocalDate d2 = LocalDate.of(2026, 12, 2);
            try (UpsertWriter w = conn.upsertWriter(ORDERS)) {
                w.upsert(Row.of(1L, d1, 10));
                w.upsert(Row.of(1L, d2, 20));
                w.upsert(Row.of(1L, d1, 11));
                w.flush();
            }
            Lookuper l = conn.lookuper(ORDERS);
            assertThat(l.lookup(Row.of(1L, d1))).contains(Row.of(1L, d1, 11));
            assertThat(l.lookup(Row.of(1L, d2))).contains(Row.of(1L, d2, 20));
            assertThatThrownBy(() -> l.lookup(Row.of(1L, LocalDate.of(2030, 1, 1))))
                    .isInstanceOf(PartitionNotFoundException.class);
            TableInfo info = conn.admin().describeTable(ORDERS);
            assertThat(info.descriptor().partitionKeys()).containsExactly("dt");
            assertThat(info.descriptor().bucketKeys()).containsExactly("id");
        }
    }

    @Test
    void t31_autoPartitioningFollowsTheServersClockAcrossDays() {
        try (TributaryServer server = start();
                Connection conn = Connection.open(server.rpcTarget())) {
            conn.admin().createDatabase("shop", false);
            conn.admin()
                    .createTable(
                            EVENTS,
                            TableDescriptor.builder(EVENT_SCHEMA)
                                    .partitionKeys("dt")
                                    .property("table.auto-partition.enabled", "true")
                                    .property("table.auto-partition.num-precreate", "2")
                                    .property("table.auto-partition.num-retention", "2")
                                    .property("table.auto-partition.time-zone", "Europe/Berlin")
                                    .build(),
                            false);
            // created with the table: today and tomorrow in Berlin
            assertThat(conn.admin().listPartitions(EVENTS))
                    .extracting(PartitionInfo::name)
                    .containsExactly("dt=2026-12-01", "dt=2026-12-02");

            for (int day = 0; day < 4; day++) {
                clock.advance(Duration.ofDays(1));
                server.partitionMaintenance().runOnce();
            }
            // now 2026-12-05 11:00 Berlin: 12-05 and 12-06 ahead, 12-03 and 12-04 retained
            assertThat(conn.admin().listPartitions(EVENTS))
                    .extracting(PartitionInfo::name)
                    .containsExactly(
                            "dt=2026-12-03", "dt=2026-12-04", "dt=2026-12-05", "dt=2026-12-06");
            // a write for an expired day is refused rather than re-creating the partition
            try (AppendWriter w = conn.appendWriter(EVENTS)) {
                w.append(Row.of(1L, "2026-12-01", "late"));
                assertThatThrownBy(w::flush)
                        .isInstanceOf(PartitionNotFoundException.class)
                        .hasMessageContaining("older than the table's auto-partition retention");
            }
            // midnight in Berlin is 23:00 UTC in December
            clock.setCurrentTimeMillis(Instant.parse("2026-12-05T22:59:59Z").toEpochMilli());
            server.partitionMaintenance().runOnce();
            assertThat(conn.admin().listPartitions(EVENTS)).hasSize(4);
            clock.setCurrentTimeMillis(Instant.parse("2026-12-05T23:00:01Z").toEpochMilli());
            server.partitionMaintenance().runOnce();
            assertThat(conn.admin().listPartitions(EVENTS))
                    .extracting(PartitionInfo::name)
                    .containsExactly(
                            "dt=2026-12-04", "dt=2026-12-05", "dt=2026-12-06", "dt=2026-12-07");
        }
    }
}
