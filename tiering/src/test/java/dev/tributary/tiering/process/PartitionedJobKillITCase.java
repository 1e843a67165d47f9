package dev.tributary.tiering.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.PartitionInfo;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.client.scan.RecordIterator;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.tiering.job.TieringJobMain;
import dev.tributary.tiering.testutil.LakeCheck;
import dev.tributary.tiering.testutil.PaimonLakeReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * T32 with a job killed mid-round: a tiering job process is SIGKILLed while it holds a round over
 * many partitions of a partitioned log table, with that round's files on disk and nothing of it
 * committed, while a writer keeps adding rows to many partitions. A second job takes over after the
 * heartbeat timeout; in the end every (partition, bucket, offset) of the store is in the lake
 * exactly once, in its own lake partition, and no file of the killed attempt is read.
 */
class PartitionedJobKillITCase {
    private static final TablePath EVENTS = TablePath.of("shop", "events");
    private static final int PARTITIONS = 24;
    private static final Schema SCHEMA =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("dt", DataTypes.STRING())
                    .column("name", DataTypes.STRING())
                    .build();

    @TempDir Path dir;
    @RegisterExtension final JobProcesses jobs = new JobProcesses();
    private final long seed = new Random().nextLong();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"paimon", "iceberg"})
    void t32_t19_jobKilledMidRoundOverManyPartitionsLeavesEachPartitionBucketOffsetOnce(
            String format) throws Exception {
        jobs.seed(seed);
        Random random = new Random(seed);
        TieringServer server =
                jobs.closeAfterTest(TieringServer.start(dir.resolve("data"), format));
        Connection conn = server.connection();
        conn.admin().createDatabase("shop", true);
        TableInfo table =
                conn.admin()
                        .createTable(
                                EVENTS,
                                TableDescriptor.builder(SCHEMA)
                                        .partitionKeys("dt")
                                        .bucketCount(3)
                                        .bucketKeys("id")
                                        .property("table.datalake.enabled", "true")
                                        // the round ceiling stays far away: job-a's round
                                        // covers every partition, none is force-finished
                                        .property("table.datalake.freshness", "10s")
                                        .build(),
                                false);
        long[] next = {0};
        try (AppendWriter w = conn.appendWriter(EVENTS)) {
            for (int i = 0; i < 20_000; i++) {
                w.append(row(next[0]++, random));
            }
            w.flush();
        }
        LakeCheck lake = new LakeCheck(server.warehouse(), format, seed);
        // job-a's commits wait at a gate that never opens: it is killed with the round written
        List<String> args =
                new java.util.ArrayList<>(List.of("--gate", dir.resolve("gate-never").toString()));
        args.addAll(server.jobArgs("job-a", seed, Map.of()));
        JobProcess jobA = jobs.start("job-a", dir, GatedCommitJobMain.class, args);
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> jobA.output().contains(GatedCommitService.HELD));
        java.util.regex.Matcher heldLine =
                java.util.regex.Pattern.compile(GatedCommitService.HELD + " .* partitions=(\\d+)")
                        .matcher(jobA.output());
        assertThat(heldLine.find()).isTrue();
        assertThat(Integer.parseInt(heldLine.group(1)))
                .as("the held round spans every partition (seed %d)", seed)
                .isEqualTo(PARTITIONS);
        TableTieringStatus held = server.status(EVENTS);
        assertThat(ShopTables.heldUncommittedBy(held, "job-a")).as("%s", held).isTrue();
        Set<String> killedFiles = uncommitted(lake);
        assertThat(killedFiles).as("the round's files are on disk (seed %d)", seed).isNotEmpty();
        jobA.kill();
        jobs.note(
                "SIGKILLed job-a with its round of "
                        + killedFiles.size()
                        + " files written over "
                        + PARTITIONS
                        + " partitions, its commit held");

        // more rows while no job runs, then a second job
        try (AppendWriter w = conn.appendWriter(EVENTS)) {
            for (int i = 0; i < 2_000; i++) {
                w.append(row(next[0]++, random));
            }
            w.flush();
        }
        jobs.start("job-b", dir, TieringJobMain.class, server.jobArgs("job-b", seed, Map.of()));

        Map<PartitionBucket, Long> ends = conn.logScanner(EVENTS).partitionEndOffsets();
        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(300))
                .ignoreExceptions()
                .untilAsserted(
                        () -> {
                            List<TieringSnapshotProperties> rounds = lake.tieringSnapshots(EVENTS);
                            Map<PartitionBucket, Long> committed =
                                    rounds.get(rounds.size() - 1).offsets();
                            ends.forEach(
                                    (pb, end) ->
                                            assertThat(committed.getOrDefault(pb, 0L))
                                                    .as("%s (seed %d)", pb, seed)
                                                    .isEqualTo(end));
                        });
        jobs.note("caught up with " + ends.size() + " (partition, bucket) pairs");
        assertThat(lake.tieringSnapshots(EVENTS))
                .as("no snapshot of the killed attempt (seed %d)", seed)
                .noneMatch(p -> p.epoch() == held.epoch());
        assertThat(lake.liveFiles(EVENTS)).doesNotContainAnyElementsOf(killedFiles);

        // every (partition, bucket, offset) once, with the store's row, in its lake partition
        Map<String, Long> idByName = new HashMap<>();
        for (PartitionInfo p : conn.admin().listPartitions(EVENTS)) {
            idByName.put(p.name(), p.partitionId());
        }
        assertThat(idByName).hasSize(PARTITIONS);
        Set<String> seen = new HashSet<>();
        List<PaimonLakeReader.LakeRow> rows = lake.rows(EVENTS, SCHEMA);
        Map<String, Row> expected = new HashMap<>();
        for (Map.Entry<PartitionBucket, Long> e : ends.entrySet()) {
            try (RecordIterator it =
                    conn.tieringGateway()
                            .readLog(
                                    TableBucket.of(table.tableId(), e.getKey()),
                                    0,
                                    e.getValue(),
                                    SCHEMA)) {
                while (it.hasNext()) {
                    LogRecord r = it.next();
                    expected.put(e.getKey() + "@" + r.offset(), r.row());
                }
            }
        }
        for (PaimonLakeReader.LakeRow r : rows) {
            long partition = idByName.get("dt=" + r.row().getString(1));
            String key = new PartitionBucket(partition, r.bucket()) + "@" + r.offset();
            assertThat(seen.add(key)).as("%s twice in the lake (seed %d)", key, seed).isTrue();
            assertThat(r.row()).as("%s (seed %d)", key, seed).isEqualTo(expected.get(key));
        }
        assertThat(seen).as("seed %d", seed).isEqualTo(expected.keySet());
        assertThat(seen).hasSize((int) next[0]);
    }

    private static Row row(long id, Random random) {
        return Row.of(
                id, "2026-12-" + String.format("%02d", 1 + random.nextInt(PARTITIONS)), "n" + id);
    }

    private static Set<String> uncommitted(LakeCheck lake) {
        Set<String> files = new TreeSet<>(lake.filesOnDisk(EVENTS));
        if (!files.isEmpty()) {
            files.removeAll(lake.liveFiles(EVENTS));
        }
        return files;
    }
}
