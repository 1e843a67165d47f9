package dev.tributary.lake.api.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Iceberg's own REST catalog server ({@code org.apache.iceberg.rest.RESTCatalogServer} from the
 * {@code iceberg-open-api} test fixtures) in its own JVM, backed by Iceberg's JDBC catalog on a
 * SQLite file. Commits sent to it carry Iceberg's update requirements, so it refuses a commit based
 * on a stale table version, as every REST catalog must.
 */
public final class IcebergRestCatalogServer implements AutoCloseable {
    private final int port;
    private final Process process;

    private IcebergRestCatalogServer(int port, Process process) {
        this.port = port;
        this.process = process;
    }

    /** A catalog whose warehouse is a local directory. */
    public static IcebergRestCatalogServer start(Path dir, String warehouse) {
        return start(dir, warehouse, Map.of());
    }

    /**
     * A catalog with the warehouse on {@code s3} (objects under {@code s3://bucket/...}): the
     * server writes table metadata there with Iceberg's S3FileIO.
     */
    public static IcebergRestCatalogServer startOnS3(Path dir, String warehouse, S3Server s3) {
        Map<String, String> props = new HashMap<>();
        props.put("io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
        props.put("s3.endpoint", s3.endpoint());
        props.put("s3.path-style-access", "true");
        props.put("s3.access-key-id", S3Server.ACCESS_KEY);
        props.put("s3.secret-access-key", S3Server.SECRET_KEY);
        props.put("client.region", S3Server.REGION);
        return start(dir, warehouse, props);
    }

    private static IcebergRestCatalogServer start(
            Path dir, String warehouse, Map<String, String> catalogProps) {
        try {
            Files.createDirectories(dir);
            int port = ServerProcesses.freePort();
            Map<String, String> props = new HashMap<>(catalogProps);
            props.put("warehouse", warehouse);
            props.put("uri", "jdbc:sqlite:file:" + dir.resolve("rest-catalog.db"));
            props.put("rest.port", Integer.toString(port));
            Map<String, String> env = new HashMap<>();
            // the fixture reads CATALOG_* variables: '_' is '.', '__' is '-'
            props.forEach((k, v) -> env.put(envName(k), v));
            String classpath =
                    Files.readString(ServerProcesses.serversDir().resolve("rest-catalog.classpath"))
                            .trim();
            Process p =
                    ServerProcesses.start(
                            List.of(
                                    "-Xmx256m",
                                    "-cp",
                                    classpath,
                                    "org.apache.iceberg.rest.RESTCatalogServer"),
                            env,
                            dir.resolve("rest-catalog.log"),
                            port);
            return new IcebergRestCatalogServer(port, p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String envName(String property) {
        return "CATALOG_" + property.replace("-", "__").replace(".", "_").toUpperCase();
    }

    /** The catalog's {@code uri} for Iceberg's {@code type=rest}. */
    public String uri() {
        return "http://127.0.0.1:" + port + "/";
    }

    @Override
    public void close() {
        ServerProcesses.stop(process);
    }
}
