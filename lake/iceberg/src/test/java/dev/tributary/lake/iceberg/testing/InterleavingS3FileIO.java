package dev.tributary.lake.iceberg.testing;

import java.util.concurrent.atomic.AtomicReference;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.io.OutputFile;

/**
 * Iceberg's S3FileIO that runs an action once, just before a commit attempt writes its manifest
 * list ({@code metadata/[<attempt tag>-]snap-*.avro}): the moment after the attempt read the
 * table's version and before it asks the catalog to commit. A test uses it to let another committer
 * commit in between, deterministically. Configured as {@code io-impl}; it does nothing else.
 */
public class InterleavingS3FileIO extends S3FileIO {
    private static final AtomicReference<Runnable> BEFORE_MANIFEST_LIST = new AtomicReference<>();

    /** Runs {@code action} before the next manifest list any instance writes, once. */
    public static void beforeNextManifestList(Runnable action) {
        BEFORE_MANIFEST_LIST.set(action);
    }

    @Override
    public OutputFile newOutputFile(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        if (path.contains("/metadata/") && (name.startsWith("snap-") || name.contains("-snap-"))) {
            Runnable action = BEFORE_MANIFEST_LIST.getAndSet(null);
            if (action != null) {
                action.run();
            }
        }
        return super.newOutputFile(path);
    }
}
