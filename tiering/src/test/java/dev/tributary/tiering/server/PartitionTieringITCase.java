package dev.tributary.tiering.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.LakeMaintenance;
import dev.tributary.client.admin.PartitionDrop;
import dev.tributary.client.admin.PartitionInfo;
import dev.tributary.client.admin.TableAlteration;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.scan.RecordIterator;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.PartitionNotFoundException;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.record.PartitionRouter;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.testutil.ExactlyOnceVerifier;
import dev.tributary.tiering.testutil.LakeCheck;
import dev.tributary.tiering.testutil.LakePartitions;
import dev.tributary.tiering.testutil.PaimonLakeReader;
import java.io.File;
import java.nio.file.Files;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Partitioned tables tiered by the real embedded job into real Paimon and Iceberg tables (T32-T34):
 * the lake tables are partitioned by the same column, every row lands in its lake partition and is
 * read back by the format's own partition-pruned read, every (partition, bucket, offset) is in the
 * lake exactly once, late rows of an older partition are tiered into that partition in the same
 * round as a new partition's, and a dropped partition of a lake table stays (refusing writes) until
 * it is tiered, also across a server restart, then goes from the store while its lake partition
 * stays (or goes too, when asked).
 */
class PartitionTieringITCase {
    private static final TablePath EVENTS = TablePath.of("shop", "events");
    private static final TablePath ORDERS = TablePath.of("shop", "orders");
    private static final Schema EVENT_SCHEMA =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("dt", DataTypes.STRING())
                    .column("page", DataTypes.STRING())
                    .build();
    private static final Schema ORDER_SCHEMA =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("dt", DataTypes.DATE())
                    .column("amount", DataTypes.INT())
                    .primaryKey("id", "dt")
                    .build();

    @TempDir File dataDir;
    private final long seed = new Random().nextLong();
    private final Random random = new Random(seed);
    private TributaryServer server;
    private Connection conn;
    private String format;

    @AfterEach
    void tearDown() {
        stop();
    }

    private void start() {
        Configuration conf = new Configuration();
        conf.setString("data.dir", dataDir.getAbsolutePath());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "-1");
        conf.setString("datalake.format", format);
        conf.setString("tiering.embedded.parallelism", "3");
        conf.setString("tiering.split.shuffle-seed", Long.toString(seed));
        server =
                TributaryServer.start(
                        conf, Clock.system(), List.of(new EmbeddedTieringExtension()));
        conn = Connection.open(server.rpcTarget());
    }

    private void stop() {
        if (conn != null) {
            conn.close();
            conn = null;
        }
        if (server != null) {
            server.close();
            server = null;
        }
    }

    private File warehouse() {
        return new File(dataDir, "lake");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"paimon", "iceberg"})
    void t32_t33_t34_partitionsTierIntoLakePartitionsExactlyOnce(String lakeFormat)
            throws Exception {
        this.format = lakeFormat;
        String why = format + " (seed " + seed + ")";
        start();
        conn.admin().createDatabase("shop", true);
        TableInfo events =
                conn.admin()
                        .createTable(
                                EVENTS,
                                TableDescriptor.builder(EVENT_SCHEMA)
                                        .partitionKeys("dt")
                                        .bucketCount(3)
                                        .bucketKeys("id")
                                        .property("table.datalake.enabled", "true")
                                        .property("table.datalake.freshness", "1s")
                                        .build(),
                                false);
        TableInfo orders =
                conn.admin()
                        .createTable(
                                ORDERS,
                                TableDescriptor.builder(ORDER_SCHEMA)
                                        .partitionKeys("dt")
                                        .bucketCount(2)
                                        .property("table.datalake.enabled", "true")
                                        .property("table.datalake.freshness", "1s")
                                        .build(),
                                false);

        // T32: rows of six days and of four days' orders, over several rounds
        long nextId = 0;
        Map<String, Integer> perDay = new HashMap<>();
        try (AppendWriter ev = conn.appendWriter(EVENTS);
                UpsertWriter or = conn.upsertWriter(ORDERS)) {
            for (int burst = 0; burst < 3; burst++) {
                List<CompletableFuture<?>> acks = new ArrayList<>();
                for (int i = 0; i < 900; i++) {
                    String dt = "2026-12-0" + (1 + random.nextInt(6));
                    perDay.merge(dt, 1, Integer::sum);
                    acks.add(ev.append(Row.of(nextId++, dt, "p" + i)));
                    LocalDate day = LocalDate.of(2026, 12, 1 + random.nextInt(4));
                    Row order = Row.of((long) random.nextInt(300), day, random.nextInt(100));
                    acks.add(random.nextInt(8) == 0 ? or.delete(order) : or.upsert(order));
                }
                ev.flush();
                or.flush();
                CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
                Thread.sleep(700);
            }
        }
        awaitCaughtUp(events);
        awaitCaughtUp(orders);

        LakePartitions.Layout eventLayout =
                LakePartitions.read(format, warehouse(), EVENTS, EVENT_SCHEMA, "dt");
        assertThat(eventLayout.partitionKeys()).as(why).containsExactly("dt");
        assertThat(eventLayout.rows().keySet()).as(why).isEqualTo(perDay.keySet());
        for (Map.Entry<String, List<PaimonLakeReader.LakeRow>> e : eventLayout.rows().entrySet()) {
            assertThat(e.getValue())
                    .as("%s: the lake partition dt=%s holds its rows only", why, e.getKey())
                    .hasSize(perDay.get(e.getKey()))
                    .allSatisfy(r -> assertThat(r.row().getString(1)).isEqualTo(e.getKey()));
        }
        LakePartitions.Layout orderLayout =
                LakePartitions.read(format, warehouse(), ORDERS, ORDER_SCHEMA, "dt");
        assertThat(orderLayout.partitionKeys()).as(why).containsExactly("dt");
        for (Map.Entry<String, List<PaimonLakeReader.LakeRow>> e : orderLayout.rows().entrySet()) {
            assertThat(e.getValue())
                    .allSatisfy(
                            r -> assertThat(r.row().getField(1).toString()).isEqualTo(e.getKey()));
        }
        verifyExactlyOnce(events);
        verifyExactlyOnce(orders);

        // T34: late rows of an older partition and rows of a new one, tiered in one round
        setFreshness(EVENTS, "1h");
        await().atMost(Duration.ofSeconds(60))
                .until(() -> "SCHEDULED".equals(conn.admin().tieringStatus(EVENTS).state()));
        int roundsBefore = new LakeCheck(warehouse(), format, seed).tieringSnapshots(EVENTS).size();
        try (AppendWriter ev = conn.appendWriter(EVENTS)) {
            for (int i = 0; i < 50; i++) {
                ev.append(Row.of(nextId++, "2026-12-01", "late"));
                ev.append(Row.of(nextId++, "2026-12-07", "new"));
            }
            ev.flush();
        }
        setFreshness(EVENTS, "1s");
        awaitCaughtUp(events);
        List<TieringSnapshotProperties> rounds =
                new LakeCheck(warehouse(), format, seed).tieringSnapshots(EVENTS);
        assertThat(rounds).as(why).hasSize(roundsBefore + 1);
        TieringSnapshotProperties lateRound = rounds.get(rounds.size() - 1);
        TieringSnapshotProperties previous = rounds.get(rounds.size() - 2);
        long oldId = partitionId(EVENTS, "dt=2026-12-01");
        long newId = partitionId(EVENTS, "dt=2026-12-07");
        assertThat(sum(lateRound.partitionOffsets(oldId)) - sum(previous.partitionOffsets(oldId)))
                .as("%s: the late rows are in the round", why)
                .isEqualTo(50);
        assertThat(sum(lateRound.partitionOffsets(newId))).as(why).isEqualTo(50);
        assertThat(lateRound.partitionNames())
                .containsEntry(oldId, "dt=2026-12-01")
                .containsEntry(newId, "dt=2026-12-07");
        assertThat(
                        LakePartitions.read(format, warehouse(), EVENTS, EVENT_SCHEMA, "dt")
                                .rows()
                                .get("2026-12-01"))
                .as("%s: late rows land in their old lake partition", why)
                .hasSize(perDay.get("2026-12-01") + 50);
        verifyExactlyOnce(events);

        // T33: a dropped partition of a lake table stays until tiered, across a restart
        setFreshness(EVENTS, "1h");
        await().atMost(Duration.ofSeconds(60))
                .until(() -> "SCHEDULED".equals(conn.admin().tieringStatus(EVENTS).state()));
        try (AppendWriter ev = conn.appendWriter(EVENTS)) {
            for (int i = 0; i < 40; i++) {
                ev.append(Row.of(nextId++, "2026-12-03", "untiered"));
            }
            ev.flush();
        }
        long dropId = partitionId(EVENTS, "dt=2026-12-03");
        PartitionDrop drop =
                conn.admin()
                        .dropPartition(EVENTS, PartitionSpec.of("dt", "2026-12-03"), false, false)
                        .orElseThrow();
        assertThat(drop.removed()).as("%s: untiered rows keep it", why).isFalse();
        assertThat(drop.partition().isDropping()).isTrue();
        try (AppendWriter ev = conn.appendWriter(EVENTS)) {
            ev.append(Row.of(nextId++, "2026-12-03", "refused"));
            assertThatThrownBy(ev::flush)
                    .isInstanceOf(PartitionNotFoundException.class)
                    .hasMessageContaining("being dropped");
        }
        // a user drop with the lake partition too, of a tiered partition: both go at once
        assertThat(
                        conn.admin()
                                .dropPartition(
                                        EVENTS, PartitionSpec.of("dt", "2026-12-05"), false, true)
                                .orElseThrow()
                                .removed())
                .as(why)
                .isTrue();
        server.partitionMaintenance().runOnce();
        assertThat(partitionNames(EVENTS)).contains("dt=2026-12-03");

        stop();
        start(); // a restart in the middle of the drop
        assertThat(conn.admin().listPartitions(EVENTS))
                .filteredOn(p -> p.partitionId() == dropId)
                .singleElement()
                .satisfies(p -> assertThat(p.isDropping()).isTrue());
        assertThat(
                        conn.logScanner(EVENTS).partitionEndOffsets().entrySet().stream()
                                .filter(e -> e.getKey().partitionId() == dropId)
                                .mapToLong(Map.Entry::getValue)
                                .sum())
                .as("%s: its data is still in the store", why)
                .isEqualTo(perDay.get("2026-12-03") + 40);
        server.partitionMaintenance().runOnce();
        assertThat(partitionNames(EVENTS)).contains("dt=2026-12-03");

        setFreshness(EVENTS, "1s"); // now it is tiered, and then it goes
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(
                        () -> {
                            server.partitionMaintenance().runOnce();
                            assertThat(partitionNames(EVENTS)).doesNotContain("dt=2026-12-03");
                        });
        assertThat(
                        Files.exists(
                                dataDir.toPath()
                                        .resolve(
                                                "store/tables/"
                                                        + events.tableId()
                                                        + "/p"
                                                        + dropId)))
                .as("%s: its buckets are deleted", why)
                .isFalse();
        Map<String, List<PaimonLakeReader.LakeRow>> finalLake =
                LakePartitions.read(format, warehouse(), EVENTS, EVENT_SCHEMA, "dt").rows();
        assertThat(finalLake.get("2026-12-03"))
                .as("%s: the lake partition stays, with every row", why)
                .hasSize(perDay.get("2026-12-03") + 40);
        assertThat(finalLake)
                .as("%s: dropped with its lake partition", why)
                .doesNotContainKey("2026-12-05");
        // the next round's properties no longer name the removed partitions
        try (AppendWriter ev = conn.appendWriter(EVENTS)) {
            ev.append(Row.of(nextId++, "2026-12-02", "after"));
            ev.flush();
        }
        awaitCaughtUp(events);
        List<TieringSnapshotProperties> last =
                new LakeCheck(warehouse(), format, seed).tieringSnapshots(EVENTS);
        assertThat(last.get(last.size() - 1).partitionNames().values())
                .as(why)
                .doesNotContain("dt=2026-12-03", "dt=2026-12-05");
    }

    private void setFreshness(TablePath path, String freshness) {
        conn.admin()
                .alterTable(
                        path,
                        TableAlteration.create()
                                .setProperty("table.datalake.freshness", freshness));
    }

    private long partitionId(TablePath path, String name) {
        return conn.admin().listPartitions(path).stream()
                .filter(p -> p.name().equals(name))
                .findFirst()
                .orElseThrow()
                .partitionId();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"paimon", "iceberg"})
    void t38_t32_partitionsAreCompactedPerPartitionAndBucketWhileTiered(String lakeFormat)
            throws Exception {
        this.format = lakeFormat;
        String why = format + " (seed " + seed + ")";
        start();
        conn.admin().createDatabase("shop", true);
        Map<String, String> compaction =
                Map.of(
                        "table.datalake.enabled", "true",
                        "table.datalake.freshness", "300ms",
                        "table.datalake.compaction.max-files", "2",
                        "table.datalake.compaction.interval", "0s");
        TableDescriptor.Builder ev =
                TableDescriptor.builder(EVENT_SCHEMA)
                        .partitionKeys("dt")
                        .bucketCount(2)
                        .bucketKeys("id");
        TableDescriptor.Builder or =
                TableDescriptor.builder(ORDER_SCHEMA).partitionKeys("dt").bucketCount(2);
        compaction.forEach(ev::property);
        compaction.forEach(or::property);
        if (format.equals("paimon")) {
            // merge-on-read, whose write-only rounds leave the files the maintenance compacts; a
            // deletion-vector table (T48, the default) compacts its level 0 inside each round
            or.property("table.datalake.pk-deletes", "equality");
        }
        TableInfo events = conn.admin().createTable(EVENTS, ev.build(), false);
        TableInfo orders = conn.admin().createTable(ORDERS, or.build(), false);

        // rounds into three days of each table: every (partition, bucket) gains a file a round
        LakeCheck lake = new LakeCheck(warehouse(), format, seed);
        long nextId = 0;
        Map<String, Integer> perDay = new HashMap<>();
        for (int round = 0; round < 4; round++) {
            int before = lake.tieringSnapshots(EVENTS).size();
            try (AppendWriter ew = conn.appendWriter(EVENTS);
                    UpsertWriter ow = conn.upsertWriter(ORDERS)) {
                List<CompletableFuture<?>> acks = new ArrayList<>();
                for (int i = 0; i < 60; i++) {
                    String dt = "2026-12-0" + (1 + i % 3);
                    perDay.merge(dt, 1, Integer::sum);
                    acks.add(ew.append(Row.of(nextId++, dt, "p" + i)));
                    LocalDate day = LocalDate.of(2026, 12, 1 + i % 3);
                    Row order = Row.of((long) random.nextInt(40), day, random.nextInt(100));
                    acks.add(random.nextInt(6) == 0 ? ow.delete(order) : ow.upsert(order));
                }
                ew.flush();
                ow.flush();
                CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
            }
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> lake.tieringSnapshots(EVENTS).size() > before);
        }
        awaitCaughtUp(events);
        awaitCaughtUp(orders);

        for (TableInfo t : List.of(events, orders)) {
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .untilAsserted(
                            () -> {
                                LakeMaintenance m =
                                        conn.admin()
                                                .tieringStatus(t.path())
                                                .maintenance()
                                                .orElseThrow();
                                assertThat(m.compactions()).as("%s %s", why, t.path()).isPositive();
                                assertThat(m.maxFilesPerBucket())
                                        .as(
                                                "%s %s: files of one (partition, bucket)",
                                                why, t.path())
                                        .isBetween(1, 2);
                            });
            LakeMaintenance m = conn.admin().tieringStatus(t.path()).maintenance().orElseThrow();
            assertThat(m.dataFilesPerBucket()).as(why).containsOnlyKeys(0, 1);
            assertThat(m.liveDataFiles())
                    .as("%s %s: live files over every (partition, bucket)", why, t.path())
                    .isGreaterThanOrEqualTo(3 * 2);
            assertThat(conn.admin().tieringStatus(t.path()).failures()).as(why).isZero();
        }

        // compacted files stay in their partitions, and every offset is in the lake once
        LakePartitions.Layout eventLayout =
                LakePartitions.read(format, warehouse(), EVENTS, EVENT_SCHEMA, "dt");
        assertThat(eventLayout.rows().keySet()).as(why).isEqualTo(perDay.keySet());
        for (Map.Entry<String, List<PaimonLakeReader.LakeRow>> e : eventLayout.rows().entrySet()) {
            assertThat(e.getValue())
                    .as("%s: the lake partition dt=%s holds its rows only", why, e.getKey())
                    .hasSize(perDay.get(e.getKey()))
                    .allSatisfy(r -> assertThat(r.row().getString(1)).isEqualTo(e.getKey()));
        }
        LakePartitions.Layout orderLayout =
                LakePartitions.read(format, warehouse(), ORDERS, ORDER_SCHEMA, "dt");
        assertThat(orderLayout.rows()).as(why).hasSize(3);
        for (Map.Entry<String, List<PaimonLakeReader.LakeRow>> e : orderLayout.rows().entrySet()) {
            assertThat(e.getValue())
                    .allSatisfy(
                            r -> assertThat(r.row().getField(1).toString()).isEqualTo(e.getKey()));
        }
        verifyExactlyOnce(events);
        verifyExactlyOnce(orders);
    }

    private List<String> partitionNames(TablePath path) {
        return conn.admin().listPartitions(path).stream().map(PartitionInfo::name).toList();
    }

    private static long sum(Map<Integer, Long> offsets) {
        return offsets.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Waits until the newest tiering snapshot has every (partition, bucket) at its end. */
    private void awaitCaughtUp(TableInfo t) {
        Map<PartitionBucket, Long> ends =
                new HashMap<>(conn.logScanner(t.path()).partitionEndOffsets());
        ends.values().removeIf(o -> o == 0);
        LakeCheck lake = new LakeCheck(warehouse(), format, seed);
        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(300))
                .ignoreExceptions()
                .untilAsserted(
                        () -> {
                            List<TieringSnapshotProperties> rounds =
                                    lake.tieringSnapshots(t.path());
                            assertThat(rounds).isNotEmpty();
                            Map<PartitionBucket, Long> committed =
                                    rounds.get(rounds.size() - 1).offsets();
                            for (Map.Entry<PartitionBucket, Long> e : ends.entrySet()) {
                                assertThat(committed.getOrDefault(e.getKey(), 0L))
                                        .as("%s %s (seed %d)", t.path(), e.getKey(), seed)
                                        .isEqualTo(e.getValue());
                            }
                        });
    }

    /**
     * Every (partition, bucket, offset) of the store is in the lake exactly once (log table), or
     * each lake partition equals its partition's KV state (PK table).
     */
    private void verifyExactlyOnce(TableInfo t) throws Exception {
        List<PartitionInfo> partitions = conn.admin().listPartitions(t.path());
        Map<PartitionBucket, Long> ends = conn.logScanner(t.path()).partitionEndOffsets();
        PartitionRouter router = PartitionRouter.of(t.descriptor());
        Map<String, List<PaimonLakeReader.LakeRow>> lakeByPartition = new HashMap<>();
        for (PaimonLakeReader.LakeRow r :
                new LakeCheck(warehouse(), format, seed).rows(t.path(), t.schema())) {
            lakeByPartition
                    .computeIfAbsent(router.partitionOf(r.row()).name(), k -> new ArrayList<>())
                    .add(r);
        }
        int checked = 0;
        for (PartitionInfo p : partitions) {
            Map<Integer, List<LogRecord>> log = new HashMap<>();
            Map<Integer, Long> committed = new HashMap<>();
            for (int b = 0; b < t.bucketCount(); b++) {
                long end = ends.getOrDefault(new PartitionBucket(p.partitionId(), b), 0L);
                committed.put(b, end);
                List<LogRecord> list = new ArrayList<>();
                try (RecordIterator it =
                        conn.tieringGateway()
                                .readLog(
                                        new TableBucket(t.tableId(), p.partitionId(), b),
                                        0,
                                        end,
                                        t.schema())) {
                    it.forEachRemaining(list::add);
                }
                log.put(b, list);
            }
            checked +=
                    ExactlyOnceVerifier.verify(
                            log,
                            committed,
                            t.path(),
                            t.descriptor(),
                            lakeByPartition.getOrDefault(p.name(), List.of()));
        }
        assertThat(checked).as("%s (seed %d)", t.path(), seed).isPositive();
    }
}
