package dev.tributary.lake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.lake.api.testing.IcebergRestCatalogServer;
import dev.tributary.lake.api.testing.S3Server;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A lake on S3-compatible object storage behind a shared catalog, for the contract suites: one
 * s3proxy for the whole test JVM (shared by every suite registering this extension), and per test
 * an empty warehouse and an empty catalog, so no test sees another's tables or objects. With
 * Iceberg's JDBC catalog each test gets its own SQLite file and warehouse prefix. Iceberg's REST
 * catalog server is one process per test class (a server JVM per test cost seconds each): its
 * warehouse, a prefix of its own suite, is fixed when it starts, so after each test every table and
 * namespace is dropped through the catalog and the warehouse's objects are deleted, and before each
 * test both are checked to be empty. Register it as a static {@code @RegisterExtension} field: its
 * per-test callbacks run before the contract's {@code @BeforeEach} opens the storage and after its
 * {@code @AfterEach} methods.
 */
final class IcebergS3Lake
        implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    static final String BUCKET = "lake";

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(IcebergS3Lake.class);

    enum CatalogKind {
        REST,
        JDBC
    }

    private final CatalogKind kind;
    private String suite;
    private Path dir;
    private S3Server s3;
    private IcebergRestCatalogServer rest;
    private int tests;
    private String prefix;

    private IcebergS3Lake(CatalogKind kind) {
        this.kind = kind;
    }

    /** Iceberg's REST catalog server, itself writing metadata to the bucket with S3FileIO. */
    static IcebergS3Lake withRestCatalog() {
        return new IcebergS3Lake(CatalogKind.REST);
    }

    /** Iceberg's JDBC catalog on a SQLite file (the real database the README names). */
    static IcebergS3Lake withJdbcCatalog() {
        return new IcebergS3Lake(CatalogKind.JDBC);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        suite = context.getRequiredTestClass().getSimpleName();
        dir = Files.createTempDirectory("iceberg-s3-");
        s3 =
                context.getRoot()
                        .getStore(NAMESPACE)
                        .getOrComputeIfAbsent(SharedS3.class, k -> SharedS3.start(), SharedS3.class)
                        .s3;
        if (kind == CatalogKind.REST) {
            prefix = suite + "-rest";
            rest = IcebergRestCatalogServer.startOnS3(dir.resolve("rest"), warehouseLocation(), s3);
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        if (kind == CatalogKind.REST) {
            assertThat(namespaces(Namespace.empty()))
                    .as("the REST catalog is empty when a test starts")
                    .isEmpty();
            assertThat(s3.keys(BUCKET, prefix + "/"))
                    .as("the warehouse is empty when a test starts")
                    .isEmpty();
        } else {
            prefix = suite + "-" + (++tests);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        if (kind == CatalogKind.REST) {
            emptyRestCatalog();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (rest != null) {
            rest.close();
        }
        deleteRecursively(dir);
    }

    /**
     * Drops every table and namespace through the REST catalog (its rows go; the files stay), then
     * deletes every object of the warehouse, orphans included, from s3proxy's backing directory.
     */
    private void emptyRestCatalog() throws Exception {
        IcebergNativeCatalog.withCatalog(
                catalogProperties(),
                warehouseLocation(),
                c -> {
                    dropAll((SupportsNamespaces) c, c, Namespace.empty());
                    return null;
                });
        deleteRecursively(warehouseDir());
    }

    private static void dropAll(SupportsNamespaces namespaces, Catalog tables, Namespace parent) {
        for (Namespace ns : namespaces.listNamespaces(parent)) {
            dropAll(namespaces, tables, ns);
            for (TableIdentifier t : tables.listTables(ns)) {
                tables.dropTable(t, false);
            }
            namespaces.dropNamespace(ns);
        }
    }

    private List<Namespace> namespaces(Namespace parent) throws Exception {
        return IcebergNativeCatalog.withCatalog(
                catalogProperties(),
                warehouseLocation(),
                c -> ((SupportsNamespaces) c).listNamespaces(parent));
    }

    /** The s3proxy every suite in the test JVM shares, closed by JUnit when the run ends. */
    private static final class SharedS3 implements AutoCloseable {
        private final Path dir;
        private final S3Server s3;

        private SharedS3(Path dir, S3Server s3) {
            this.dir = dir;
            this.s3 = s3;
        }

        static SharedS3 start() {
            try {
                Path dir = Files.createTempDirectory("iceberg-s3-shared-");
                return new SharedS3(dir, S3Server.start(dir, BUCKET));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void close() throws IOException {
            s3.close();
            deleteRecursively(dir);
        }
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    S3Server s3() {
        return s3;
    }

    /**
     * Iceberg catalog properties as a user configures them under {@code datalake.iceberg.*}. The
     * JDBC catalog leaves {@code io-impl} out: Tributary picks S3FileIO for an s3:// warehouse.
     */
    Map<String, String> catalogProperties() {
        Map<String, String> p = new HashMap<>();
        if (kind == CatalogKind.REST) {
            p.put("type", "rest");
            p.put("uri", rest.uri());
            p.put("io-impl", IcebergObjectStores.S3_FILE_IO);
        } else {
            p.put("type", "jdbc");
            p.put("uri", "jdbc:sqlite:" + dir.resolve(prefix + "-catalog.db"));
        }
        p.put("s3.endpoint", s3.endpoint());
        p.put("s3.path-style-access", "true");
        p.put("s3.access-key-id", S3Server.ACCESS_KEY);
        p.put("s3.secret-access-key", S3Server.SECRET_KEY);
        p.put("client.region", S3Server.REGION);
        return p;
    }

    /** This test's warehouse: a prefix of the bucket, empty when the test starts. */
    String warehouseLocation() {
        return "s3://" + BUCKET + "/" + prefix;
    }

    /** The directory backing this test's warehouse prefix in s3proxy. */
    Path warehouseDir() {
        return s3.bucketDir(BUCKET).resolve(prefix);
    }

    /** The objects the bucket holds under {@code warehouse/relative}, as s3:// locations. */
    List<String> objects(String relative) {
        String keyPrefix = prefix + "/" + relative;
        return s3.keys(BUCKET, keyPrefix).stream().map(k -> "s3://" + BUCKET + "/" + k).toList();
    }
}
