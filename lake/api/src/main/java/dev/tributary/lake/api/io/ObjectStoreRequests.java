package dev.tributary.lake.api.io;

import dev.tributary.common.id.TablePath;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Object-store requests and bytes of this process, per lake table (T47). The format plugins record
 * every request they see against the object's location ({@code bucket/key}); the request is charged
 * to the registered table whose location is the longest prefix of it (on a {@code /} boundary), or
 * to {@link #OTHER} (catalog and warehouse-level requests, tables not opened yet).
 *
 * <p>What a request is depends on the format: Iceberg's S3FileIO reports each HTTP attempt to S3
 * (retries included); Paimon's S3 file IO is counted at its file-IO interface, one operation per
 * call (see the Paimon module). Counts are cumulative since the process started. Thread safe and
 * cheap: a record is a few hash lookups and {@link LongAdder} increments.
 *
 * <p>With the tiering job in the server's JVM (the embedded default) the server's counts include
 * the job's writes; with a remote Flink cluster they hold only what the server itself requests
 * (commits, maintenance, the orphan sweep), and the job's requests are counted in its own JVM.
 */
public final class ObjectStoreRequests {
    /** The name under which requests to no registered table are counted. */
    public static final String OTHER = "other";

    private static final ObjectStoreRequests GLOBAL = new ObjectStoreRequests();
    private static final java.util.regex.Pattern SCHEME =
            java.util.regex.Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*");

    /** Table location (normalized, no trailing slash) to table. */
    private final Map<String, TablePath> locations = new ConcurrentHashMap<>();

    private final Map<TablePath, Counters> tables = new ConcurrentHashMap<>();
    private final Counters other = new Counters();

    /** The process's registry, the one the format plugins record into and the server reads. */
    public static ObjectStoreRequests global() {
        return GLOBAL;
    }

    /** A registry of its own, for unit tests of code that records. */
    public static ObjectStoreRequests create() {
        return new ObjectStoreRequests();
    }

    /**
     * Charges requests under {@code location} (a URI such as {@code s3://bucket/wh/db/t} or a local
     * path) to {@code table} from now on. Idempotent; called whenever a plugin opens a table.
     */
    public void registerTable(TablePath table, String location) {
        String key = normalize(location);
        if (key.isEmpty()) {
            return;
        }
        locations.put(key, table);
        tables.computeIfAbsent(table, t -> new Counters());
    }

    /**
     * Records one request on {@code bucket}'s object {@code key} (a LIST: the listed prefix).
     *
     * @param bytesUp request body bytes, 0 when none
     * @param bytesDown response body bytes, 0 when none or unknown
     */
    public void record(
            String bucket, String key, ObjectStoreRequest kind, long bytesUp, long bytesDown) {
        countersOf(objectKey(bucket, key)).add(kind, bytesUp, bytesDown);
    }

    /** Adds bytes of a request recorded before, e.g. a response body announced later. */
    public void recordBytes(String bucket, String key, long bytesUp, long bytesDown) {
        countersOf(objectKey(bucket, key)).addBytes(bytesUp, bytesDown);
    }

    /** Records one request on the object at {@code location} (a URI or path). */
    public void recordLocation(
            String location, ObjectStoreRequest kind, long bytesUp, long bytesDown) {
        countersOf(normalize(location)).add(kind, bytesUp, bytesDown);
    }

    /** Adds bytes read or written later, e.g. when a stream is closed. */
    public void recordLocationBytes(String location, long bytesUp, long bytesDown) {
        countersOf(normalize(location)).addBytes(bytesUp, bytesDown);
    }

    /** The table charged for {@code bucket/key}, if any. */
    public Optional<TablePath> tableOf(String bucket, String key) {
        return Optional.ofNullable(lookup(objectKey(bucket, key)));
    }

    private static String objectKey(String bucket, String key) {
        return key == null || key.isEmpty() ? bucket : bucket + "/" + trimSlashes(key);
    }

    /** The table's cumulative counts, {@link ObjectStoreCounts#ZERO} when nothing was recorded. */
    public ObjectStoreCounts snapshot(TablePath table) {
        Counters c = tables.get(table);
        return c == null ? ObjectStoreCounts.ZERO : c.snapshot();
    }

    /** Requests that matched no registered table. */
    public ObjectStoreCounts snapshotOther() {
        return other.snapshot();
    }

    /** Every table with counts, by name ({@code db.t}), plus {@link #OTHER}; sorted by name. */
    public Map<String, ObjectStoreCounts> snapshotAll() {
        Map<String, ObjectStoreCounts> out = new TreeMap<>();
        tables.forEach((t, c) -> out.put(t.toString(), c.snapshot()));
        out.put(OTHER, other.snapshot());
        return out;
    }

    private Counters countersOf(String normalizedKey) {
        TablePath t = lookup(normalizedKey);
        if (t == null) {
            return other;
        }
        return tables.computeIfAbsent(t, x -> new Counters());
    }

    /** The longest registered location that is {@code key} or a {@code /}-prefix of it. */
    private TablePath lookup(String key) {
        if (locations.isEmpty()) {
            return null;
        }
        String k = key;
        while (true) {
            TablePath t = locations.get(k);
            if (t != null) {
                return t;
            }
            int slash = k.lastIndexOf('/');
            if (slash <= 0) {
                return null;
            }
            k = k.substring(0, slash);
        }
    }

    /**
     * {@code s3://bucket/a/b/} and {@code s3a://bucket/a/b} become {@code bucket/a/b}; {@code
     * file:/x/y}, {@code file:///x/y} and {@code /x/y} become {@code /x/y}.
     */
    static String normalize(String location) {
        if (location == null || location.isEmpty()) {
            return "";
        }
        String s = location;
        int scheme = s.indexOf("://");
        if (scheme > 0 && SCHEME.matcher(s.substring(0, scheme)).matches()) {
            String rest = s.substring(scheme + 3);
            s = s.substring(0, scheme).equals("file") ? "/" + trimSlashes(rest) : trimSlashes(rest);
        } else if (s.startsWith("file:")) {
            s = "/" + trimSlashes(s.substring(5));
        } else {
            try {
                URI u = URI.create(s);
                if (u.getScheme() != null && u.getScheme().length() > 1) {
                    s = trimSlashes(u.getSchemeSpecificPart());
                }
            } catch (IllegalArgumentException notAUri) {
                // a plain path
            }
        }
        while (s.length() > 1 && s.endsWith("/")) {
            s = s.substring(0, s.length() - 1);
        }
        return s;
    }

    private static String trimSlashes(String s) {
        int b = 0;
        int e = s.length();
        while (b < e && s.charAt(b) == '/') {
            b++;
        }
        while (e > b && s.charAt(e - 1) == '/') {
            e--;
        }
        return s.substring(b, e);
    }

    private static final class Counters {
        private final LongAdder[] requests = new LongAdder[ObjectStoreRequest.values().length];
        private final LongAdder bytesUp = new LongAdder();
        private final LongAdder bytesDown = new LongAdder();

        Counters() {
            for (int i = 0; i < requests.length; i++) {
                requests[i] = new LongAdder();
            }
        }

        void add(ObjectStoreRequest kind, long up, long down) {
            requests[kind.ordinal()].increment();
            addBytes(up, down);
        }

        void addBytes(long up, long down) {
            if (up > 0) {
                bytesUp.add(up);
            }
            if (down > 0) {
                bytesDown.add(down);
            }
        }

        ObjectStoreCounts snapshot() {
            long[] r = new long[requests.length];
            for (int i = 0; i < r.length; i++) {
                r[i] = requests[i].sum();
            }
            return new ObjectStoreCounts(r, bytesUp.sum(), bytesDown.sum());
        }
    }
}
