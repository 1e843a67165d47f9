package dev.tributary.tiering.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.ClusterInfo;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.testing.LoopbackPorts;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.testutil.LakeCheck;
import dev.tributary.tiering.testutil.TestSchemas;
import java.io.File;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T49, first step: the real server with its embedded tiering job keeps the coordinator metadata in
 * a Raft quorum of one ({@code RaftMetadataStore}) instead of the file log: tables are created,
 * written and tiered exactly once; after a restart the metadata comes back from the Raft log, the
 * new coordinator's epochs are above every epoch of the run before (T17, T19) and tiering carries
 * on exactly once. Configurations a data directory cannot take are refused, naming what to do.
 */
class ClusterOfOneITCase {
    private static final TablePath CLICKS = TablePath.of("shop", "clicks");
    private static final TablePath CUSTOMERS = TablePath.of("shop", "customers");

    @TempDir File dataDir;
    private final long seed = new Random().nextLong();
    private final Random random = new Random(seed);

    @Test
    void t49_metadataInARaftQuorumOfOneTiersExactlyOnceAcrossRestarts() throws Exception {
        Map<String, String> cluster = clusterOf(LoopbackPorts.free());
        LakeCheck lake = new LakeCheck(new File(dataDir, "lake"), seed);
        long epochBefore;
        TributaryServer first = start(cluster);
        try (first;
                Connection conn = Connection.open(first.rpcTarget())) {
            conn.admin().createDatabase("shop", false);
            TableInfo clicks = conn.admin().createTable(CLICKS, lakeTable(false), false);
            TableInfo customers = conn.admin().createTable(CUSTOMERS, lakeTable(true), false);
            write(conn, 0);
            lake.verifyCaughtUp(conn, clicks, Duration.ofSeconds(120));
            lake.verifyCaughtUp(conn, customers, Duration.ofSeconds(60));
            epochBefore = maxEpoch(lake);
        }
        assertThat(first.fatalError()).as("a clean stop is not a lost leadership").isEmpty();
        assertThat(new File(dataDir, "raft")).isDirectory();
        assertThat(new File(dataDir, "coordinator"))
                .as("no lone server's metadata beside the quorum's")
                .doesNotExist();

        try (TributaryServer server = start(cluster);
                Connection conn = Connection.open(server.rpcTarget())) {
            TableInfo clicks = conn.admin().describeTable(CLICKS);
            TableInfo customers = conn.admin().describeTable(CUSTOMERS);
            assertThat(conn.admin().listTables("shop"))
                    .containsExactlyInAnyOrder("clicks", "customers");
            int roundsBefore = lake.tieringSnapshots(CLICKS).size();
            write(conn, 1);
            lake.verifyCaughtUp(conn, clicks, Duration.ofSeconds(120));
            lake.verifyCaughtUp(conn, customers, Duration.ofSeconds(60));
            List<TieringSnapshotProperties> after = lake.tieringSnapshots(CLICKS);
            assertThat(after.subList(roundsBefore, after.size()))
                    .as("rounds after the restart (seed %d)", seed)
                    .isNotEmpty()
                    .allSatisfy(p -> assertThat(p.epoch()).isGreaterThan(epochBefore));
            // the restarted server heartbeats its coordinator (itself) over loopback all along
            assertThat(conn.admin().describeCluster().servers())
                    .singleElement()
                    .satisfies(
                            s -> {
                                assertThat(s.liveness()).isEqualTo(ClusterInfo.Liveness.ALIVE);
                                assertThat(s.millisSinceHeartbeat().orElseThrow())
                                        .isLessThan(8_000);
                            });
        }
    }

    @Test
    void t49_aDataDirectoryKeepsTheKindOfMetadataItWasCreatedWith() throws Exception {
        Map<String, String> cluster = clusterOf(LoopbackPorts.free());
        // a lone server's data directory does not silently become an empty cluster
        start(Map.of()).close();
        assertThatThrownBy(() -> start(cluster).close())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("lone server's metadata")
                .hasMessageContaining("without the cluster.* options");
        try (TributaryServer server = start(Map.of())) {
            assertThat(server.rpcPort()).as("the lone server still starts").isPositive();
        }

        // and a cluster's data directory does not become an empty lone server
        File other = new File(dataDir, "other");
        start(other, cluster).close();
        assertThatThrownBy(() -> start(other, Map.of()).close())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("cluster's quorum")
                .hasMessageContaining("cluster.id");
    }

    private void write(Connection conn, int burst) throws Exception {
        try (AppendWriter log = conn.appendWriter(CLICKS);
                UpsertWriter pk = conn.upsertWriter(CUSTOMERS)) {
            for (int i = 0; i < 500; i++) {
                long id = random.nextLong();
                log.append(Row.of(id, "click-" + burst + "-" + id));
            }
            for (int i = 0; i < 300; i++) {
                long key = random.nextInt(200);
                Row row = Row.of(key, "c" + key, random.nextInt(1000));
                if (random.nextInt(5) == 0) {
                    pk.delete(row);
                } else {
                    pk.upsert(row);
                }
            }
            log.flush();
            pk.flush();
        }
    }

    private static long maxEpoch(LakeCheck lake) {
        return java.util.stream.Stream.of(CLICKS, CUSTOMERS)
                .flatMap(t -> lake.tieringSnapshots(t).stream())
                .mapToLong(TieringSnapshotProperties::epoch)
                .max()
                .orElseThrow();
    }

    private static TableDescriptor lakeTable(boolean primaryKey) {
        return TableDescriptor.builder(primaryKey ? TestSchemas.PK : TestSchemas.LOG)
                .bucketCount(primaryKey ? 2 : 3)
                .property("table.datalake.enabled", "true")
                .property("table.datalake.freshness", "1s")
                .build();
    }

    private static Map<String, String> clusterOf(int raftPort) {
        return Map.of(
                "cluster.id", "one",
                "cluster.server-id", "1",
                "cluster.voters", "1@127.0.0.1:" + raftPort,
                "cluster.election-timeout", "300ms");
    }

    private TributaryServer start(Map<String, String> extra) {
        return start(dataDir, extra);
    }

    private TributaryServer start(File dir, Map<String, String> extra) {
        Configuration conf = new Configuration();
        extra.forEach(conf::setString);
        conf.setString("data.dir", dir.getAbsolutePath());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "-1");
        conf.setString("tiering.embedded.parallelism", "1");
        return TributaryServer.start(conf, Clock.system(), List.of(new EmbeddedTieringExtension()));
    }
}
