package dev.tributary.lake.paimon;

import dev.tributary.lake.api.testing.S3Server;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A Paimon warehouse on S3-compatible object storage (a real s3proxy server) behind Paimon's JDBC
 * catalog on a real PostgreSQL with the catalog lock on, as a user configures it under {@code
 * datalake.paimon.*}: writes go through Paimon's S3 file IO, snapshot commits run under the JDBC
 * lock.
 */
final class PaimonS3Lake {
    static final String BUCKET = "lake";

    private PaimonS3Lake() {}

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
        // a waiting committer polls the lock at most this far apart (Paimon's default: 8 s)
        o.put("lock-check-max-sleep", "500ms");
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

    /** The directory s3proxy keeps the objects of {@link #warehouse(Path)} in. */
    static Path warehouseDir(S3Server s3, Path localDir) {
        return s3.bucketDir(BUCKET).resolve(localDir.getFileName().toString());
    }
}
