package dev.tributary.lake.api.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Hive's standalone metastore server ({@code org.apache.hadoop.hive.metastore.HiveMetaStore} from
 * {@code hive-standalone-metastore-server}, built by {@code testing/hive-metastore}) in its own
 * JVM, on an embedded Derby database under the given directory, serving Thrift on a loopback port.
 *
 * <p>The schema is created first by Hive's own schema tool from the release's Derby scripts (the
 * bin tarball's, unpacked by {@code testing/hive-metastore}): DataNucleus alone would create the
 * object tables but not the transaction and lock tables that Iceberg's and Paimon's commit locks
 * use. The metadata transformer is off: it would rewrite the tables a pre-Hive-4 client registers
 * (Iceberg's and Paimon's) as a Hive 4 engine sees fit, which is not what a lake catalog wants.
 */
public final class HiveMetastoreServer implements AutoCloseable {
    private static final Duration SCHEMA_TIMEOUT = Duration.ofMinutes(2);
    private static final String LOG4J2 =
            String.join(
                    "\n",
                    "appender.console.type = Console",
                    "appender.console.name = console",
                    "appender.console.layout.type = PatternLayout",
                    "appender.console.layout.pattern = %d{HH:mm:ss.SSS} %-5p [%t] %c{1}: %m%n",
                    "rootLogger.level = info",
                    "rootLogger.appenderRef.console.ref = console",
                    "");
    private final int port;
    private final Path warehouse;
    private final Process process;

    private HiveMetastoreServer(int port, Path warehouse, Process process) {
        this.port = port;
        this.warehouse = warehouse;
        this.process = process;
    }

    /** Starts a metastore keeping its Derby database and default warehouse under {@code dir}. */
    public static HiveMetastoreServer start(Path dir) {
        try {
            Path conf = Files.createDirectories(dir.resolve("conf"));
            Path warehouse = Files.createDirectories(dir.resolve("warehouse"));
            int port = ServerProcesses.freePort();
            Map<String, String> site = new LinkedHashMap<>();
            site.put("metastore.thrift.port", Integer.toString(port));
            site.put("metastore.thrift.bind.host", "127.0.0.1");
            site.put(
                    "javax.jdo.option.ConnectionURL",
                    "jdbc:derby:;databaseName=" + dir.resolve("metastore_db") + ";create=true");
            site.put(
                    "javax.jdo.option.ConnectionDriverName",
                    "org.apache.derby.jdbc.EmbeddedDriver");
            site.put("metastore.warehouse.dir", warehouse.toUri().toString());
            site.put("metastore.schema.verification", "true");
            site.put("metastore.metadata.transformer.class", " ");
            site.put("metastore.event.db.notification.api.auth", "false");
            // Iceberg and Paimon own their schema evolution (INT to BIGINT, ...); the metastore
            // mirrors it and must not veto it (Iceberg's documented setting for Hive)
            site.put("metastore.disallow.incompatible.col.type.changes", "false");
            Files.writeString(conf.resolve("metastore-site.xml"), siteXml(site));
            Files.writeString(conf.resolve("log4j2.properties"), LOG4J2);
            Path servers = serversDir();
            String classpath =
                    conf
                            + File.pathSeparator
                            + Files.readString(servers.resolve("hive-metastore.classpath")).trim();
            initSchema(servers, classpath, dir);
            Process p =
                    ServerProcesses.start(
                            List.of(
                                    "-Xmx384m",
                                    "-XX:TieredStopAtLevel=1",
                                    "-Dderby.stream.error.file=" + dir.resolve("derby.log"),
                                    "-cp",
                                    classpath,
                                    "org.apache.hadoop.hive.metastore.HiveMetaStore"),
                            Map.of(),
                            dir.resolve("hive-metastore.log"),
                            port);
            return new HiveMetastoreServer(port, warehouse, p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs Hive's schema tool ({@code -initSchema -dbType derby}) and waits for it. */
    private static void initSchema(Path servers, String classpath, Path dir) throws IOException {
        Path log = dir.resolve("schema-tool.log");
        Path home;
        try (Stream<Path> homes = Files.list(servers.resolve("hive-metastore-home"))) {
            home = homes.findFirst().orElseThrow();
        }
        ProcessBuilder pb =
                new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-Xmx256m",
                                "-XX:TieredStopAtLevel=1",
                                "-Dderby.stream.error.file=" + dir.resolve("derby.log"),
                                "-cp",
                                classpath,
                                "org.apache.hadoop.hive.metastore.tools.schematool.MetastoreSchemaTool",
                                "-initSchema",
                                "-dbType",
                                "derby")
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile());
        // the tool finds scripts/metastore/upgrade/derby under METASTORE_HOME
        pb.environment().put("METASTORE_HOME", home.toString());
        Process tool = pb.start();
        try {
            if (!tool.waitFor(SCHEMA_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                tool.destroyForcibly();
                throw new IllegalStateException(
                        "the Hive schema tool did not finish in "
                                + SCHEMA_TIMEOUT
                                + ": "
                                + ServerProcesses.tail(log));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            tool.destroyForcibly();
            throw new IllegalStateException(e);
        }
        if (tool.exitValue() != 0) {
            throw new IllegalStateException(
                    "the Hive schema tool failed with "
                            + tool.exitValue()
                            + ": "
                            + ServerProcesses.tail(log));
        }
    }

    /** {@code testing/hive-metastore/target/servers}, found from the working directory upwards. */
    private static Path serversDir() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path p = dir; p != null; p = p.getParent()) {
            Path candidate = p.resolve("testing/hive-metastore/target/servers");
            if (Files.isRegularFile(candidate.resolve("hive-metastore.classpath"))) {
                return candidate;
            }
        }
        throw new IllegalStateException(
                "testing/hive-metastore/target/servers not found above "
                        + dir
                        + ": build it first (mvn -pl testing/hive-metastore package)");
    }

    private static String siteXml(Map<String, String> site) {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
        site.forEach(
                (k, v) ->
                        xml.append("  <property><name>")
                                .append(k)
                                .append("</name><value>")
                                .append(v)
                                .append("</value></property>\n"));
        return xml.append("</configuration>\n").toString();
    }

    /** {@code thrift://127.0.0.1:port}: the {@code uri} of Iceberg's and Paimon's Hive catalogs. */
    public String thriftUri() {
        return "thrift://127.0.0.1:" + port;
    }

    /** The metastore's own default warehouse directory. */
    public Path warehouse() {
        return warehouse;
    }

    @Override
    public void close() {
        ServerProcesses.stop(process);
    }
}
