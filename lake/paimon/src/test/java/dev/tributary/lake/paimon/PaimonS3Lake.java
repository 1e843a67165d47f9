package dev.tributary.lake.paimon;

import dev.tributary.lake.api.testing.S3Server;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A Paimon warehouse on S3-compatible object storage (a real s3proxy server) behind Paimon's JDBC
 * catalog on a real PostgreSQL with the catalog lock on, as a user configures it under {@code
 * datalake.paimon.*}: writes go through Paimon's S3 file IO, snapshot commits run under the JDBC
 * lock.
 *
 * <p>As a JUnit extension (a static {@code @RegisterExtension} field) it starts the two servers
 * once for the whole test JVM, shared by every suite that registers it, and stops them when the run
 * ends. Each test keeps its own warehouse prefix and its own catalog key (both named after the
 * test's own temporary directory), so no test sees another's tables, objects or locks.
 */
final class PaimonS3Lake implements BeforeAllCallback {
    static final String BUCKET = "lake";

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(PaimonS3Lake.class);

    private Servers servers;

    /** The servers every suite registering this extension shares. */
    static PaimonS3Lake shared() {
        return new PaimonS3Lake();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        servers =
                context.getRoot()
                        .getStore(NAMESPACE)
                        .getOrComputeIfAbsent(Servers.class, k -> Servers.start(), Servers.class);
    }

    S3Server s3() {
        return servers.s3;
    }

    /** The shared PostgreSQL's JDBC URL, for Paimon's {@code uri}. */
    String jdbcUrl() {
        return jdbcUrl("postgres");
    }

    /** The JDBC URL of {@code database} on the shared PostgreSQL. */
    String jdbcUrl(String database) {
        return servers.database.getJdbcUrl("postgres", database);
    }

    /**
     * Catalog options of the warehouse of the test whose temporary directory is {@code localDir}.
     */
    Map<String, String> catalogOptions(Path localDir) {
        return catalogOptions(servers.s3, servers.database, localDir);
    }

    /** The directory s3proxy keeps the objects of {@link #warehouse(Path)} in. */
    Path warehouseDir(Path localDir) {
        return servers.s3.bucketDir(BUCKET).resolve(localDir.getFileName().toString());
    }

    /** An embedded PostgreSQL (binaries from Maven Central) for the catalog's tables and lock. */
    static EmbeddedPostgres startDatabase() {
        try {
            return EmbeddedPostgres.builder().start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Catalog options of a warehouse whose catalog is keyed by {@code localDir}'s name in the
     * shared database (one per test, so tests do not see each other's tables or locks).
     */
    static Map<String, String> catalogOptions(
            S3Server s3, EmbeddedPostgres database, Path localDir) {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("metastore", "jdbc");
        o.put("uri", database.getJdbcUrl("postgres", "postgres"));
        o.put("catalog-key", localDir.getFileName().toString());
        o.put("lock.enabled", "true");
        o.put("s3.endpoint", s3.endpoint());
        o.put("s3.endpoint.region", S3Server.REGION);
        o.put("s3.path.style.access", "true");
        o.put("s3.access-key", S3Server.ACCESS_KEY);
        o.put("s3.secret-key", S3Server.SECRET_KEY);
        return o;
    }

    /** {@code s3://lake/<name of localDir>}: a fresh prefix per test. */
    static String warehouse(Path localDir) {
        return "s3://" + BUCKET + "/" + localDir.getFileName();
    }

    /** s3proxy and PostgreSQL, closed by JUnit when the run ends (a value of the root store). */
    private static final class Servers implements AutoCloseable {
        private final Path dir;
        private final S3Server s3;
        private final EmbeddedPostgres database;

        private Servers(Path dir, S3Server s3, EmbeddedPostgres database) {
            this.dir = dir;
            this.s3 = s3;
            this.database = database;
        }

        static Servers start() {
            Path dir;
            try {
                dir = Files.createTempDirectory("paimon-s3-");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            S3Server s3 = S3Server.start(dir.resolve("s3"), BUCKET);
            try {
                return new Servers(dir, s3, startDatabase());
            } catch (RuntimeException e) {
                s3.close();
                throw e;
            }
        }

        @Override
        public void close() throws IOException {
            try {
                database.close();
            } finally {
                s3.close();
                try (Stream<Path> files = Files.walk(dir)) {
                    files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }
}
