package dev.tributary.lake.paimon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.Secrets;
import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.lake.api.LakeStoragePlugins;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What Tributary accepts as a Paimon warehouse on an object store (T45, T46): only a catalog whose
 * commits are atomic there, and never a credential in an error. No S3 server is needed: Paimon's S3
 * file IO connects lazily, and the refusals happen before any request.
 */
class PaimonObjectStoreConfigTest {
    private static final String SECRET = "do-not-print-me-7f3a";

    @TempDir Path dir;

    private static Map<String, String> s3Options() {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("warehouse", "s3://lake/warehouse");
        o.put("s3.endpoint", "http://127.0.0.1:1");
        o.put("s3.path.style.access", "true");
        o.put("s3.access-key", "AKIA-TEST");
        o.put("s3.secret-key", SECRET);
        return o;
    }

    private static InvalidConfigException open(Map<String, String> options) {
        try {
            LakeStoragePlugins.find("paimon")
                    .createLakeStorage(Configuration.fromMap(options))
                    .close();
        } catch (InvalidConfigException e) {
            return e;
        }
        throw new AssertionError("the Paimon storage opened with " + Secrets.redact(options));
    }

    private static String allMessages(Throwable e) {
        StringBuilder b = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            b.append(t).append('\n');
        }
        return b.toString();
    }

    @Test
    void t46_theFilesystemCatalogIsRefusedOnAnObjectStoreSayingWhatToConfigure() {
        InvalidConfigException e = open(s3Options());
        assertThat(e.getMessage())
                .contains("s3://lake/warehouse")
                .contains("not atomic")
                .contains("datalake.paimon.metastore: jdbc")
                .contains("datalake.paimon.lock.enabled: true")
                .contains("datalake.paimon.metastore: hive")
                .contains("REST catalog");
        assertThat(allMessages(e)).doesNotContain(SECRET);
    }

    @Test
    void t46_aHadoopObjectStoreSchemeCountsAsAnObjectStoreToo() {
        Map<String, String> o = s3Options();
        o.put("warehouse", "s3a://lake/warehouse");
        // no Hadoop S3A here: the error points to Paimon's own S3 file IO
        InvalidConfigException e = open(o);
        assertThat(e.getMessage()).contains("use an s3:// URI");
        assertThat(allMessages(e)).doesNotContain(SECRET);
        assertThat(PaimonCommitSafety.isObjectStoreScheme("gs://b/w")).isTrue();
        assertThat(PaimonCommitSafety.isObjectStoreScheme("file:/tmp/w")).isFalse();
        assertThat(PaimonCommitSafety.isObjectStoreScheme("hdfs://nn/w")).isFalse();
    }

    @Test
    void t46_aJdbcCatalogWithItsLockSwitchedOffIsRefusedOnAnObjectStore() {
        Map<String, String> o = s3Options();
        o.put("metastore", "jdbc");
        o.put("uri", "jdbc:sqlite:" + dir.resolve("c.db"));
        o.put("lock.enabled", "false");
        InvalidConfigException e = open(o);
        assertThat(e.getMessage()).contains("lock.enabled").contains("object store");
        assertThat(allMessages(e)).doesNotContain(SECRET);
    }

    @Test
    void t46_theJdbcCatalogOnAnObjectStoreRunsWithItsLock() {
        Map<String, String> o = s3Options();
        o.put("metastore", "jdbc");
        assertThat(PaimonCommitSafety.check(o, "s3://lake/warehouse", true))
                .containsEntry("lock.enabled", "true")
                // a waiting commit polls the lock at least every 250 ms, not Paimon's 8 s
                .containsEntry("lock-check-max-sleep", "250ms");
        o.put("lock.enabled", "TRUE");
        o.put("lock-check-max-sleep", "2s");
        assertThat(PaimonCommitSafety.check(o, "s3://lake/warehouse", true))
                .containsEntry("lock.enabled", "true")
                .containsEntry("lock-check-max-sleep", "2s");
        // a local warehouse is left as configured: a rename is atomic there
        o.remove("lock.enabled");
        assertThat(PaimonCommitSafety.check(o, "/tmp/w", false)).isSameAs(o);
    }

    @Test
    void t45_aCatalogThatCannotOpenFailsWithTheSecretMasked() {
        Map<String, String> o = s3Options();
        o.put("metastore", "no-such-metastore");
        o.put("jdbc.password", SECRET);
        InvalidConfigException e = open(o);
        assertThat(e.getMessage())
                .contains("s3.secret-key=" + Secrets.MASK)
                .contains("jdbc.password=" + Secrets.MASK)
                .contains("s3.access-key=AKIA-TEST");
        assertThat(allMessages(e)).doesNotContain(SECRET);
    }

    @Test
    void t45_aWarehouseNoFileIoOpensIsAConfigErrorWithTheSecretMasked() {
        Map<String, String> o = s3Options();
        o.put("warehouse", "nosuchscheme://bucket/w");
        InvalidConfigException e = open(o);
        assertThat(e.getMessage()).contains("nosuchscheme://bucket/w");
        assertThat(allMessages(e)).doesNotContain(SECRET);
    }
}
