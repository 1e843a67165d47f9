package dev.tributary.lake.paimon;

import dev.tributary.common.exception.InvalidConfigException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Refuses a Paimon catalog whose table commits would not be atomic on the warehouse's store (T46).
 *
 * <p>Paimon commits a snapshot by writing its file if no file of that name exists. On a file system
 * that is an atomic rename; on an object store (S3, OSS, GCS, ...) it is a check followed by a
 * copy, so two committers racing for the same snapshot id can both "win" and one snapshot silently
 * replaces the other. Paimon makes that safe only under a catalog lock (the JDBC or Hive catalog's
 * lock) or by committing through its REST catalog server. The filesystem catalog has no lock of its
 * own, so it is refused on an object store, and a JDBC or Hive catalog with its lock switched off
 * is refused too: the user asked for something unsafe, and quietly switching the lock back on would
 * hide that the configuration does not mean what it says.
 */
final class PaimonCommitSafety {
    static final String METASTORE = "metastore";
    static final String LOCK_ENABLED = "lock.enabled";

    /**
     * How far apart, at most, a committer waiting for the catalog lock polls it. Paimon doubles the
     * wait from 100 ms up to this (its default: 8 s), so a tiering round that found the lock held
     * by a compaction's commit could sleep seconds after the lock was free, eating into the table's
     * freshness. A poll is one small statement against the catalog's database.
     */
    private static final String LOCK_CHECK_MAX_SLEEP = "lock-check-max-sleep";

    private static final String DEFAULT_LOCK_CHECK_MAX_SLEEP = "250ms";
    private static final String FILESYSTEM = "filesystem";
    private static final Set<String> OBJECT_STORE_SCHEMES =
            Set.of(
                    "s3", "s3a", "s3n", "oss", "gs", "abfs", "abfss", "wasb", "wasbs", "cosn",
                    "obs", "ks3", "tos");

    private PaimonCommitSafety() {}

    /**
     * The catalog options to open the catalog with: {@code options} unchanged for a warehouse that
     * is not on an object store, otherwise with {@code lock.enabled=true} set for the catalogs that
     * take a lock (Paimon 1.3 enables the lock on object stores by default already; setting it
     * keeps the guarantee independent of that default) and {@code lock-check-max-sleep} set to
     * {@value #DEFAULT_LOCK_CHECK_MAX_SLEEP} unless configured.
     *
     * @throws InvalidConfigException naming what to configure instead when commits would not be
     *     atomic
     */
    static Map<String, String> check(
            Map<String, String> options, String warehouse, boolean objectStore) {
        if (!objectStore) {
            return options;
        }
        String metastore = metastore(options);
        switch (metastore) {
            case FILESYSTEM:
                throw new InvalidConfigException(
                        "the Paimon warehouse '"
                                + warehouse
                                + "' is on an object store, where Paimon's filesystem catalog"
                                + " (metastore: filesystem, the default) commits by renaming a"
                                + " file, which is not atomic there: two commits can both succeed"
                                + " and one snapshot replace the other. Configure a catalog that"
                                + " makes commits atomic: 'datalake.paimon.metastore: jdbc' with"
                                + " 'datalake.paimon.uri: jdbc:...' (the JDBC catalog and its lock,"
                                + " 'datalake.paimon.lock.enabled: true'), or"
                                + " 'datalake.paimon.metastore: hive' with the metastore's"
                                + " 'datalake.paimon.uri', or Paimon's REST catalog"
                                + " ('datalake.paimon.metastore: rest')");
            case "jdbc":
            case "hive":
                String lock = options.get(LOCK_ENABLED);
                if (lock != null && !Boolean.parseBoolean(lock.trim())) {
                    throw new InvalidConfigException(
                            "'datalake.paimon.lock.enabled' is '"
                                    + lock
                                    + "' but the Paimon warehouse '"
                                    + warehouse
                                    + "' is on an object store, where only the "
                                    + metastore
                                    + " catalog's lock makes commits atomic: remove the key or set"
                                    + " it to true");
                }
                Map<String, String> locked = new LinkedHashMap<>(options);
                locked.put(LOCK_ENABLED, "true");
                locked.putIfAbsent(LOCK_CHECK_MAX_SLEEP, DEFAULT_LOCK_CHECK_MAX_SLEEP);
                return locked;
            default:
                // rest (commits are the server's) or a catalog Tributary does not know
                return options;
        }
    }

    /** The catalog type, {@code filesystem} when unset (Paimon's default). */
    static String metastore(Map<String, String> options) {
        String m = options.get(METASTORE);
        return m == null || m.isBlank() ? FILESYSTEM : m.trim().toLowerCase(Locale.ROOT);
    }

    /** Whether {@code uri}'s scheme names an object store (where a rename is not atomic). */
    static boolean isObjectStoreScheme(String uri) {
        int colon = uri.indexOf(':');
        return colon > 0
                && OBJECT_STORE_SCHEMES.contains(uri.substring(0, colon).toLowerCase(Locale.ROOT));
    }

    /** Whether the catalog's {@code warehouse} names a location Paimon's file IO opens. */
    static boolean warehouseIsAPath(Map<String, String> options) {
        return !"rest".equals(metastore(options));
    }
}
