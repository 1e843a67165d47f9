package dev.tributary.lake.api.io;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A snapshot of object-store requests and bytes (T47): cumulative counts of one table as read from
 * {@link ObjectStoreRequests}, or the difference of two snapshots (a round, a maintenance pass).
 * Immutable.
 */
public final class ObjectStoreCounts {
    /** No request, no byte. */
    public static final ObjectStoreCounts ZERO =
            new ObjectStoreCounts(new long[ObjectStoreRequest.values().length], 0, 0);

    private final long[] requests;
    private final long bytesUp;
    private final long bytesDown;

    ObjectStoreCounts(long[] requests, long bytesUp, long bytesDown) {
        this.requests = requests;
        this.bytesUp = bytesUp;
        this.bytesDown = bytesDown;
    }

    /** Requests of one kind; every attempt of a retried request counts. */
    public long requests(ObjectStoreRequest kind) {
        return requests[kind.ordinal()];
    }

    /** Requests of every kind. */
    public long totalRequests() {
        long n = 0;
        for (long r : requests) {
            n += r;
        }
        return n;
    }

    /** Request body bytes sent to the store. */
    public long bytesUp() {
        return bytesUp;
    }

    /** Response body bytes the store announced (Content-Length) or a stream read. */
    public long bytesDown() {
        return bytesDown;
    }

    /** {@code this - earlier}, per kind; for a delta between two snapshots of one table. */
    public ObjectStoreCounts minus(ObjectStoreCounts earlier) {
        long[] d = new long[requests.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = requests[i] - earlier.requests[i];
        }
        return new ObjectStoreCounts(d, bytesUp - earlier.bytesUp, bytesDown - earlier.bytesDown);
    }

    /** {@code this + other}, per kind. */
    public ObjectStoreCounts plus(ObjectStoreCounts other) {
        long[] d = new long[requests.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = requests[i] + other.requests[i];
        }
        return new ObjectStoreCounts(d, bytesUp + other.bytesUp, bytesDown + other.bytesDown);
    }

    /**
     * For JSON views: {@code requests} (total), one entry per kind seen (label to count, kinds at 0
     * left out), {@code bytes_up} and {@code bytes_down}.
     */
    public Map<String, Object> toMap() {
        Map<String, Object> byKind = new LinkedHashMap<>();
        for (ObjectStoreRequest k : ObjectStoreRequest.values()) {
            if (requests(k) != 0) {
                byKind.put(k.label(), requests(k));
            }
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("requests", totalRequests());
        m.put("by_kind", byKind);
        m.put("bytes_up", bytesUp);
        m.put("bytes_down", bytesDown);
        return m;
    }

    @Override
    public String toString() {
        return toMap().toString();
    }
}
