package dev.tributary.tiering.objectstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.testing.HiveMetastoreServer;
import dev.tributary.lake.api.testing.S3Server;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.server.EmbeddedTieringExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.source.ReadBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each shared catalog end to end with the real server and its embedded tiering job (T46): the
 * catalogs not covered by the object-store ITCases (Iceberg REST: {@code IcebergOnS3ITCase}, Paimon
 * JDBC: {@code PaimonOnS3ITCase}). The lake is configured only with {@code datalake.<format>.*}
 * keys; another engine then opens the same catalog with the format's own library, finds the table
 * and reads every written row exactly once.
 */
class SharedCatalogsITCase {
    private static final TablePath CLICKS = TablePath.of("web", "clicks");
    private static final Schema SCHEMA =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("page", DataTypes.STRING())
                    .build();
    private static final int ROWS = 600;

    @TempDir Path dir;

    @Test
    void t46_icebergJdbcCatalogWithTheWarehouseOnS3() throws Exception {
        try (S3Server s3 = S3Server.start(dir.resolve("s3"), "lake")) {
            Map<String, String> catalog = new HashMap<>();
            catalog.put("type", "jdbc");
            catalog.put("uri", "jdbc:sqlite:" + dir.resolve("iceberg-catalog.db"));
            catalog.put("warehouse", "s3://lake/warehouse");
            // Tributary defaults to it on s3://; another engine names it
            catalog.put("io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
            catalog.put("s3.endpoint", s3.endpoint());
            catalog.put("s3.path-style-access", "true");
            catalog.put("s3.access-key-id", S3Server.ACCESS_KEY);
            catalog.put("s3.secret-access-key", S3Server.SECRET_KEY);
            catalog.put("client.region", S3Server.REGION);
            tierAndRead("iceberg", catalog, () -> icebergIds(catalog));
            assertThat(s3.keys("lake", "warehouse/web/clicks/data/")).isNotEmpty();
        }
    }

    @Test
    void t46_icebergHiveMetastoreCatalog() throws Exception {
        try (HiveMetastoreServer hms = HiveMetastoreServer.start(dir.resolve("hms"))) {
            Map<String, String> catalog = new HashMap<>();
            catalog.put("type", "hive");
            catalog.put("uri", hms.thriftUri());
            catalog.put("warehouse", dir.resolve("lake").toUri().toString());
            tierAndRead("iceberg", catalog, () -> icebergIds(catalog));
        }
    }

    @Test
    void t46_paimonHiveMetastoreCatalog() throws Exception {
        try (HiveMetastoreServer hms = HiveMetastoreServer.start(dir.resolve("hms"))) {
            Map<String, String> catalog = new HashMap<>();
            catalog.put("metastore", "hive");
            catalog.put("uri", hms.thriftUri());
            catalog.put("warehouse", dir.resolve("lake").toUri().toString());
            tierAndRead("paimon", catalog, () -> paimonIds(catalog));
        }
    }

    private interface LakeIds {
        List<Long> read() throws Exception;
    }

    /** Writes {@link #ROWS} rows, waits until they are tiered, and checks another engine's read. */
    private void tierAndRead(String format, Map<String, String> catalog, LakeIds lakeIds)
            throws Exception {
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.resolve("store").toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "-1");
        conf.setString("tiering.embedded.parallelism", "1");
        conf.setString("datalake.format", format);
        catalog.forEach((k, v) -> conf.setString("datalake." + format + "." + k, v));
        try (TributaryServer server =
                        TributaryServer.start(
                                conf, Clock.system(), List.of(new EmbeddedTieringExtension()));
                Connection conn = Connection.open(server.rpcTarget())) {
            conn.admin().createDatabase(CLICKS.database(), false);
            conn.admin()
                    .createTable(
                            CLICKS,
                            TableDescriptor.builder(SCHEMA)
                                    .bucketCount(2)
                                    .bucketKeys("id")
                                    .property("table.datalake.enabled", "true")
                                    .property("table.datalake.freshness", "500ms")
                                    .build(),
                            false);
            for (int burst = 0; burst < 3; burst++) {
                try (AppendWriter w = conn.appendWriter(CLICKS)) {
                    List<CompletableFuture<?>> acks = new ArrayList<>();
                    for (int i = 0; i < ROWS / 3; i++) {
                        long id = (long) burst * (ROWS / 3) + i;
                        acks.add(w.append(Row.of(id, "p" + id)));
                    }
                    w.flush();
                    CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
                }
                await().atMost(Duration.ofSeconds(120))
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> tiered(conn));
            }
            assertThat(conn.admin().tieringStatus(CLICKS).failures()).isZero();
        }
        // after the server stopped: the catalog alone leads another engine to the rows
        List<Long> ids = lakeIds.read();
        assertThat(ids).hasSize(ROWS);
        Set<Long> distinct = new HashSet<>(ids);
        assertThat(distinct).hasSize(ROWS);
        assertThat(distinct).allMatch(id -> id >= 0 && id < ROWS);
    }

    private static boolean tiered(Connection conn) {
        TableTieringStatus s = conn.admin().tieringStatus(CLICKS);
        return s.lagRecords().isPresent() && s.lagRecords().getAsLong() == 0;
    }

    private static List<Long> icebergIds(Map<String, String> props) throws Exception {
        Catalog catalog =
                CatalogUtil.buildIcebergCatalog(
                        "tributary", props, new org.apache.hadoop.conf.Configuration());
        try {
            Table t = catalog.loadTable(TableIdentifier.of(CLICKS.database(), CLICKS.table()));
            List<Long> ids = new ArrayList<>();
            try (CloseableIterable<Record> rows = IcebergGenerics.read(t).select("id").build()) {
                for (Record r : rows) {
                    ids.add((Long) r.getField("id"));
                }
            }
            return ids;
        } finally {
            if (catalog instanceof AutoCloseable c) {
                c.close();
            }
        }
    }

    private static List<Long> paimonIds(Map<String, String> props) throws Exception {
        try (org.apache.paimon.catalog.Catalog catalog =
                CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(props)))) {
            org.apache.paimon.table.Table t =
                    catalog.getTable(Identifier.create(CLICKS.database(), CLICKS.table()));
            int idField = t.rowType().getFieldNames().indexOf("id");
            ReadBuilder rb = t.newReadBuilder();
            List<Long> ids = new ArrayList<>();
            try (RecordReader<InternalRow> reader =
                    rb.newRead().createReader(rb.newScan().plan())) {
                reader.forEachRemaining(row -> ids.add(row.getLong(idField)));
            }
            return ids;
        }
    }
}
