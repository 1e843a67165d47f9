package dev.tributary.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.Clock;
import dev.tributary.lake.api.testing.IcebergRestCatalogServer;
import dev.tributary.lake.api.testing.S3Server;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.server.EmbeddedTieringExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flink SQL over a table whose lake is Iceberg on S3-compatible object storage (a real s3proxy)
 * behind Iceberg's REST catalog server (T41 on T45/T46): the tiered part is read from the objects
 * through the catalog, the fresh tail from the store, with the filter pushed into the lake read.
 */
class FlinkSqlObjectStoreITCase {
    private static final String BUCKET = "lake";

    @TempDir Path dir;

    @Test
    void t41_t45_selectReadsTheLakeOnObjectStorageAndTheStoresTail() throws Exception {
        try (S3Server s3 = S3Server.start(dir.resolve("s3"), BUCKET);
                IcebergRestCatalogServer rest =
                        IcebergRestCatalogServer.startOnS3(
                                dir.resolve("rest"), "s3://" + BUCKET + "/w", s3)) {
            Configuration conf = new Configuration();
            conf.setString("data.dir", dir.resolve("data").toString());
            conf.setString("server.rpc.port", "0");
            conf.setString("server.http.port", "-1");
            conf.setString("tiering.embedded.parallelism", "1");
            // retention deletes tiered log segments quickly: the SELECT then needs the lake
            conf.setString("log.segment.size", "4kb");
            conf.setString("server.maintenance.interval", "200ms");
            conf.setString("datalake.format", "iceberg");
            conf.setString("datalake.iceberg.warehouse", "s3://" + BUCKET + "/w");
            conf.setString("datalake.iceberg.type", "rest");
            conf.setString("datalake.iceberg.uri", rest.uri());
            conf.setString("datalake.iceberg.io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
            conf.setString("datalake.iceberg.s3.endpoint", s3.endpoint());
            conf.setString("datalake.iceberg.s3.path-style-access", "true");
            conf.setString("datalake.iceberg.client.region", S3Server.REGION);
            conf.setString("datalake.iceberg.s3.access-key-id", S3Server.ACCESS_KEY);
            conf.setString("datalake.iceberg.s3.secret-access-key", S3Server.SECRET_KEY);
            try (TributaryServer server =
                            TributaryServer.start(
                                    conf, Clock.system(), List.of(new EmbeddedTieringExtension()));
                    Connection conn = Connection.open(server.rpcTarget())) {
                TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
                env.executeSql(
                        "CREATE CATALOG trib WITH ('type' = 'tributary', 'address' = '"
                                + server.rpcTarget()
                                + "')");
                env.executeSql("USE CATALOG trib");
                env.executeSql("CREATE DATABASE shop");
                env.executeSql(
                        "CREATE TABLE shop.orders (id BIGINT, item STRING, amount INT)"
                                + " DISTRIBUTED BY HASH(id) INTO 3 BUCKETS"
                                + " WITH ('table.datalake.enabled' = 'true',"
                                + " 'table.datalake.freshness' = '1s',"
                                + " 'table.log.retention-size' = '1kb')");
                TablePath orders = TablePath.of("shop", "orders");

                env.executeSql("INSERT INTO shop.orders VALUES " + values(0, 3000)).await();
                await().atMost(Duration.ofSeconds(90))
                        .until(
                                () ->
                                        conn.admin().tieringStatus(orders).lagRecords().orElse(1)
                                                        == 0
                                                && conn
                                                        .logScanner(orders)
                                                        .startOffsets()
                                                        .values()
                                                        .stream()
                                                        .anyMatch(o -> o > 0));
                env.executeSql("INSERT INTO shop.orders VALUES " + values(3000, 4000)).await();

                List<Row> all = collect(env, "SELECT id, item, amount FROM shop.orders");
                assertThat(all).hasSize(4000);
                assertThat(all.stream().map(r -> r.getField(0)).distinct().count()).isEqualTo(4000);
                List<Row> filtered =
                        collect(env, "SELECT amount, id FROM shop.orders WHERE amount < 20");
                long expected = 0;
                for (long i = 0; i < 4000; i++) {
                    if (i % 50 < 20) {
                        expected++;
                    }
                }
                assertThat(filtered).hasSize((int) expected);
                assertThat(s3.keys(BUCKET, "w/shop/orders/data/")).isNotEmpty();
            }
        }
    }

    private static List<Row> collect(TableEnvironment env, String sql) throws Exception {
        List<Row> out = new ArrayList<>();
        try (CloseableIterator<Row> it = env.executeSql(sql).collect()) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    private static String values(long from, long to) {
        StringJoiner j = new StringJoiner(", ");
        for (long i = from; i < to; i++) {
            j.add("(" + i + ", 'item-" + (i % 10) + "', " + (i % 50) + ")");
        }
        return j.toString();
    }
}
