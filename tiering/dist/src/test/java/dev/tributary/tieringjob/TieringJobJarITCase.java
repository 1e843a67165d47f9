package dev.tributary.tieringjob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.server.TributaryServer;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.client.ClientUtils;
import org.apache.flink.client.deployment.executors.RemoteExecutor;
import org.apache.flink.client.program.PackagedProgram;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.DefaultExecutorServiceLoader;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.source.ReadBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged job jar as a Flink cluster sees it. Runs after {@code package} (its own failsafe
 * execution), with the tiering module kept off the class path, so the job's code can only come from
 * the jar: the Flink MiniCluster here plays a cluster whose class path is Flink plus whatever else
 * happens to be there (the server's lake plugin, Hadoop), and the jar is submitted the way {@code
 * flink run -d} does it, through a {@link PackagedProgram} with Flink's child-first user-code class
 * loader and the REST endpoint.
 */
@Tag("job-jar")
class TieringJobJarITCase {
    private static final String MAIN_CLASS = "dev.tributary.tiering.job.TieringJobMain";
    private static final String PLUGIN_SERVICE =
            "META-INF/services/dev.tributary.lake.api.LakeStoragePlugin";
    private static final Schema LOG_SCHEMA =
            Schema.of(
                    List.of(
                            new Column("id", DataTypes.BIGINT(), null),
                            new Column("name", DataTypes.STRING(), null)),
                    List.of());

    @TempDir Path dir;
    private final long seed = new Random().nextLong();
    private final Random random = new Random(seed);
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        // reverse start order: the job (a client of the server) goes before the server
        Exception first = null;
        for (int i = toClose.size() - 1; i >= 0; i--) {
            try {
                toClose.get(i).close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    @Test
    void jarCarriesTheJobAndBothLakePluginsButNoFlinkAndNoLoggingBackend() throws IOException {
        try (JarFile jar = new JarFile(jobJar())) {
            List<String> names = jar.stream().map(ZipEntry::getName).toList();
            assertThat(names).filteredOn(n -> n.startsWith("org/apache/flink/")).isEmpty();
            assertThat(names)
                    .as("the cluster brings the logging backend")
                    .filteredOn(
                            n ->
                                    n.startsWith("org/slf4j/")
                                            || n.startsWith("org/apache/logging/log4j/")
                                            || n.startsWith("org/apache/log4j/")
                                            || n.startsWith("ch/qos/logback/")
                                            || n.equals(
                                                    "META-INF/services/org.slf4j.spi.SLF4JServiceProvider"))
                    .isEmpty();
            assertThat(names)
                    .contains(
                            "dev/tributary/tiering/job/TieringJobMain.class",
                            "dev/tributary/client/Connection.class",
                            "dev/tributary/lake/paimon/PaimonLakeStoragePlugin.class",
                            "dev/tributary/lake/iceberg/IcebergLakeStoragePlugin.class");
            assertThat(serviceLines(jar, PLUGIN_SERVICE))
                    .as("ServicesResourceTransformer merged both plugins' registrations")
                    .containsExactlyInAnyOrder(
                            "dev.tributary.lake.paimon.PaimonLakeStoragePlugin",
                            "dev.tributary.lake.iceberg.IcebergLakeStoragePlugin");
            assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class"))
                    .isEqualTo(MAIN_CLASS);
        }
    }

    @Test
    void t6_t29_jarSubmittedLikeFlinkRunTiersALogTableThatPaimonsReaderReads() throws Exception {
        assertThatThrownBy(() -> Class.forName(MAIN_CLASS))
                .as("the job must come from the jar, not from this test's class path")
                .isInstanceOf(ClassNotFoundException.class);
        File warehouse = dir.resolve("lake").toFile();
        Configuration serverConf =
                new Configuration()
                        .setString("data.dir", dir.resolve("server").toString())
                        .setString("server.rpc.port", "0")
                        .setString("server.http.port", "-1")
                        .setString("datalake.format", "paimon")
                        .setString("datalake.paimon.warehouse", warehouse.getAbsolutePath());
        // no extensions: no embedded tiering job, the submitted jar is the only one
        TributaryServer server = TributaryServer.start(serverConf, Clock.system(), List.of());
        toClose.add(server);
        Connection conn = Connection.open(server.rpcTarget());
        toClose.add(conn);

        TablePath clicks = TablePath.of("shop", "clicks");
        conn.admin().createDatabase("shop", true);
        TableInfo info =
                conn.admin()
                        .createTable(
                                clicks,
                                TableDescriptor.builder(LOG_SCHEMA)
                                        .bucketCount(3)
                                        .property("table.datalake.enabled", "true")
                                        .property("table.datalake.freshness", "2s")
                                        .build(),
                                false);
        // the server's lake-table creation is an extension (cli's embedded tiering) that this
        // set-up leaves out, so the test creates the lake table the way that extension does
        try (LakeStorage lake = LakeStoragePlugins.open(serverConf)) {
            lake.catalog().createTable(info.path(), info.descriptor());
        }
        List<String> written = new ArrayList<>(append(conn, clicks, 600));

        MiniCluster cluster = startFlinkCluster();
        JobID job = submit(cluster, server.rpcPort(), warehouse);
        toClose.add(() -> cancel(cluster, job));

        awaitLake(warehouse, clicks, written.size());
        // rows written while the job runs reach the lake in a later round
        written.addAll(append(conn, clicks, 400));
        List<String> lake = awaitLake(warehouse, clicks, written.size());
        assertThat(lake).as("seed %d", seed).containsExactlyInAnyOrderElementsOf(written);
        assertThat(cluster.getJobStatus(job).get()).isEqualTo(JobStatus.RUNNING);
    }

    private MiniCluster startFlinkCluster() throws Exception {
        org.apache.flink.configuration.Configuration conf =
                new org.apache.flink.configuration.Configuration();
        conf.set(RestOptions.BIND_PORT, "0");
        MiniCluster cluster =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setConfiguration(conf)
                                .setNumTaskManagers(1)
                                .setNumSlotsPerTaskManager(2)
                                .withRandomPorts()
                                .build());
        cluster.start();
        toClose.add(cluster);
        return cluster;
    }

    /**
     * {@code flink run -d -p 2 JAR --coordinator ... }: the program runs its main in the client
     * (here) with Flink's user-code class loader, and the job graph goes over REST with the jar.
     */
    private JobID submit(MiniCluster cluster, int rpcPort, File warehouse) throws Exception {
        URI rest = cluster.getRestAddress().get(30, TimeUnit.SECONDS);
        org.apache.flink.configuration.Configuration client =
                new org.apache.flink.configuration.Configuration();
        client.set(DeploymentOptions.TARGET, RemoteExecutor.NAME);
        client.set(DeploymentOptions.ATTACHED, false);
        client.set(RestOptions.ADDRESS, rest.getHost());
        client.set(RestOptions.PORT, rest.getPort());
        client.set(CoreOptions.DEFAULT_PARALLELISM, 2);
        // the CLI ships the jar with the job (pipeline.jars), so the cluster's class loaders see it
        client.set(
                PipelineOptions.JARS,
                PackagedProgram.getJobJarAndDependencies(jobJar(), null).stream()
                        .map(URL::toString)
                        .toList());
        // no entry point given: Flink takes the manifest's Main-Class, as `flink run` without -c
        PackagedProgram program =
                PackagedProgram.newBuilder()
                        .setJarFile(jobJar())
                        .setConfiguration(client)
                        .setArguments(
                                "--coordinator",
                                "127.0.0.1:" + rpcPort,
                                "--datalake.format",
                                "paimon",
                                "--datalake.paimon.warehouse",
                                warehouse.getAbsolutePath(),
                                "--tiering.split.shuffle-seed",
                                Long.toString(seed))
                        .build();
        toClose.add(program);
        assertThat(pluginIds(program.getUserCodeClassLoader()))
                .as("both lake plugins load in Flink's user-code class loader")
                .containsExactlyInAnyOrder("paimon", "iceberg");
        ClientUtils.executeProgram(
                new DefaultExecutorServiceLoader(), client, program, false, true);

        Collection<JobStatusMessage> jobs = cluster.listJobs().get(30, TimeUnit.SECONDS);
        assertThat(jobs).hasSize(1);
        JobID job = jobs.iterator().next().getJobId();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> cluster.getJobStatus(job).get() == JobStatus.RUNNING);
        return job;
    }

    private static void cancel(MiniCluster cluster, JobID job) throws Exception {
        if (!cluster.getJobStatus(job).get().isGloballyTerminalState()) {
            cluster.cancelJob(job).get(30, TimeUnit.SECONDS);
        }
        // the job's enumerator is a client of the server: let it stop before the server does
        cluster.requestJobResult(job).get(30, TimeUnit.SECONDS);
    }

    /** The lake plugin ids as the jar's own LakeStoragePlugins sees them in {@code loader}. */
    @SuppressWarnings("unchecked")
    private static List<String> pluginIds(ClassLoader loader) throws Exception {
        Class<?> plugins = Class.forName(LakeStoragePlugins.class.getName(), true, loader);
        assertThat(plugins.getClassLoader())
                .as("child-first: from the jar, not from the class path the cluster runs on")
                .isNotSameAs(LakeStoragePlugins.class.getClassLoader());
        return (List<String>)
                plugins.getMethod("available", ClassLoader.class).invoke(null, loader);
    }

    private List<String> append(Connection conn, TablePath path, int rows) throws Exception {
        List<String> names = new ArrayList<>();
        List<CompletableFuture<?>> acks = new ArrayList<>();
        try (AppendWriter writer = conn.appendWriter(path)) {
            for (int i = 0; i < rows; i++) {
                long id = random.nextLong();
                acks.add(writer.append(Row.of(id, "click-" + id)));
                names.add(id + "/click-" + id);
            }
            writer.flush();
            CompletableFuture.allOf(acks.toArray(new CompletableFuture[0]))
                    .get(30, TimeUnit.SECONDS);
        }
        return names;
    }

    /** Polls Paimon's own reader until the table holds {@code rows} rows; returns them. */
    private List<String> awaitLake(File warehouse, TablePath path, int rows) {
        List<List<String>> last = new ArrayList<>(List.of(List.of()));
        await().atMost(Duration.ofSeconds(40))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(
                        () -> {
                            last.set(0, readPaimon(warehouse, path));
                            assertThat(last.get(0)).as("seed %d", seed).hasSize(rows);
                        });
        return last.get(0);
    }

    private static List<String> readPaimon(File warehouse, TablePath path) throws Exception {
        Options options =
                Options.fromMap(
                        Map.of(
                                "warehouse",
                                warehouse.toURI().toString(),
                                "cache-enabled",
                                "false"));
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options))) {
            ReadBuilder read =
                    catalog.getTable(Identifier.create(path.database(), path.table()))
                            .newReadBuilder();
            List<String> out = new ArrayList<>();
            try (RecordReader<InternalRow> reader =
                    read.newRead().createReader(read.newScan().plan().splits())) {
                reader.forEachRemaining(r -> out.add(r.getLong(0) + "/" + r.getString(1)));
            }
            return out;
        }
    }

    private static File jobJar() {
        String path = System.getProperty("tributary.tiering-job.jar");
        assertThat(path)
                .as("set by tiering/dist/pom.xml's job-jar-itcase execution (mvn verify)")
                .isNotNull();
        File jar = new File(path);
        assertThat(jar).isFile();
        return jar;
    }

    private static List<String> serviceLines(JarFile jar, String name) throws IOException {
        ZipEntry entry = jar.getEntry(name);
        assertThat(entry).as(name).isNotNull();
        try (InputStream in = jar.getInputStream(entry)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .map(String::trim)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                    .toList();
        }
    }
}
