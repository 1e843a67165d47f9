package dev.tributary.server.status;

import dev.tributary.common.config.TableOptions;
import dev.tributary.common.row.BucketFunctionType;
import dev.tributary.common.types.TableDescriptor;
import java.util.List;
import java.util.Optional;

/**
 * What a user should know about a lake table's layout (T36): a table whose bucket function is not
 * its lake format's still tiers correctly, but every split writes into many lake buckets. The
 * function cannot change, so the warning says what would fix it.
 */
final class LayoutWarnings {
    private LayoutWarnings() {}

    /**
     * @param serverLakeFormat the server's {@code datalake.format}, used when the table does not
     *     name its own
     */
    static List<String> of(TableDescriptor table, String serverLakeFormat) {
        if (table.bucketKeys().isEmpty()) {
            return List.of();
        }
        String format =
                table.properties()
                        .getOrDefault(TableOptions.DATALAKE_FORMAT.key(), serverLakeFormat);
        BucketFunctionType function = BucketFunctionType.of(table);
        Optional<BucketFunctionType> aligned = BucketFunctionType.alignedWith(format);
        if (aligned.isEmpty() || aligned.get() == function) {
            return List.of();
        }
        int n = table.bucketCount();
        String warning =
                "bucket function '"
                        + function.value()
                        + "' is not the lake format's ('"
                        + aligned.get().value()
                        + "'): each bucket's split writes into up to "
                        + n
                        + " lake buckets, up to "
                        + ((long) n * n)
                        + " data files per round instead of "
                        + n;
        Optional<String> unsupported =
                aligned.get().unsupportedReason(table.schema(), table.bucketKeys());
        if (unsupported.isPresent()) {
            warning +=
                    ", and the "
                            + format
                            + " table is not partitioned by key, so engines cannot prune it ("
                            + unsupported.get()
                            + ")";
        } else {
            warning +=
                    ". A table's bucket function cannot change: for an aligned layout create a new"
                            + " table (it gets "
                            + TableOptions.BUCKET_FUNCTION.key()
                            + "="
                            + aligned.get().value()
                            + ") and copy the data";
        }
        return List.of(warning);
    }
}
