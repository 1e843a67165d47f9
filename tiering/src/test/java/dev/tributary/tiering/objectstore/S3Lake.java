package dev.tributary.tiering.objectstore;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.time.Clock;
import dev.tributary.lake.api.testing.IcebergRestCatalogServer;
import dev.tributary.lake.api.testing.S3Server;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.server.EmbeddedTieringExtension;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The server settings of an Iceberg lake on S3 behind Iceberg's REST catalog, and a real server
 * with the embedded tiering job started on them, for this package's ITCases.
 */
final class S3Lake {
    static final String BUCKET = "lake";
    static final String WAREHOUSE = "s3://" + BUCKET + "/wh";

    private S3Lake() {}

    /**
     * {@code datalake.*} settings: the REST catalog at {@code rest}, files through {@code
     * s3Endpoint}.
     */
    static Map<String, String> icebergOnS3(IcebergRestCatalogServer rest, String s3Endpoint) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("datalake.format", "iceberg");
        m.put("datalake.iceberg.type", "rest");
        m.put("datalake.iceberg.uri", rest.uri());
        m.put("datalake.iceberg.warehouse", WAREHOUSE);
        m.put("datalake.iceberg.io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
        m.put("datalake.iceberg.s3.endpoint", s3Endpoint);
        m.put("datalake.iceberg.s3.path-style-access", "true");
        m.put("datalake.iceberg.s3.access-key-id", S3Server.ACCESS_KEY);
        m.put("datalake.iceberg.s3.secret-access-key", S3Server.SECRET_KEY);
        m.put("datalake.iceberg.client.region", S3Server.REGION);
        return m;
    }

    static TributaryServer startServer(Path dataDir, long seed, Map<String, String> extra) {
        Configuration conf = new Configuration();
        extra.forEach(conf::setString);
        conf.setString("data.dir", dataDir.toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "0");
        conf.setString("tiering.embedded.parallelism", "2");
        conf.setString("tiering.split.shuffle-seed", Long.toString(seed));
        return TributaryServer.start(conf, Clock.system(), List.of(new EmbeddedTieringExtension()));
    }
}
