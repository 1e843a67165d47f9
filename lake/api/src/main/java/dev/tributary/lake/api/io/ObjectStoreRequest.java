package dev.tributary.lake.api.io;

/**
 * The kinds of object-store request Tributary counts (T47). The names are S3's; other stores map
 * onto the nearest kind. A multipart upload is counted as its create, each part and its complete
 * (or abort), never as one PUT.
 */
public enum ObjectStoreRequest {
    PUT,
    GET,
    HEAD,
    LIST,
    DELETE,
    COPY,
    MULTIPART_CREATE,
    MULTIPART_PART,
    MULTIPART_COMPLETE,
    MULTIPART_ABORT,
    /** Any other request on a bucket (ACLs, tagging, bucket-level calls). */
    OTHER;

    /** The lower-case name used in metrics and JSON, e.g. {@code multipart_part}. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
