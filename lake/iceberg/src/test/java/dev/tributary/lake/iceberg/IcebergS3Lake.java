package dev.tributary.lake.iceberg;

import dev.tributary.lake.api.testing.IcebergRestCatalogServer;
import dev.tributary.lake.api.testing.S3Server;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A lake on S3-compatible object storage behind a shared catalog, for the contract suites: one
 * s3proxy per test class, and per test a fresh warehouse prefix in its bucket and a fresh catalog
 * (Iceberg's REST catalog server, or Iceberg's JDBC catalog on a SQLite file), so no test sees
 * another's tables or objects. Register it as a static {@code @RegisterExtension} field: its
 * per-test callbacks run before the contract's {@code @BeforeEach} opens the storage.
 */
final class IcebergS3Lake
        implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    static final String BUCKET = "lake";

    enum CatalogKind {
        REST,
        JDBC
    }

    private final CatalogKind kind;
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
        dir = Files.createTempDirectory("iceberg-s3-");
        s3 = S3Server.start(dir.resolve("s3"), BUCKET);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        prefix = "warehouse-" + (++tests);
        if (kind == CatalogKind.REST) {
            rest =
                    IcebergRestCatalogServer.startOnS3(
                            dir.resolve("rest-" + tests), warehouseLocation(), s3);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (rest != null) {
            rest.close();
            rest = null;
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (s3 != null) {
            s3.close();
        }
        try (Stream<Path> files = Files.walk(dir)) {
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

    /** This test's warehouse: its own prefix of the bucket. */
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
