package dev.tributary.coordinator.metadata;

import dev.tributary.common.config.TableOptions;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.BucketFunctionType;
import dev.tributary.common.types.TableDescriptor;
import java.util.Map;

/**
 * The table's bucket function ({@code table.bucket.function}, T36) is chosen once: a new table's
 * value must bucket its key, and no ALTER may change it, since every row already stored sits in the
 * bucket that function gave it.
 */
final class BucketFunctionRules {
    private BucketFunctionRules() {}

    /**
     * @throws InvalidInputException if the value is not a function, or the function cannot bucket
     *     the table's key (the message names the columns and what to do)
     */
    static void validateCreate(TableDescriptor table) {
        BucketFunctionType type = BucketFunctionType.of(table);
        if (!table.bucketKeys().isEmpty()) {
            type.unsupportedReason(table.schema(), table.bucketKeys())
                    .ifPresent(
                            reason -> {
                                throw new InvalidInputException(reason);
                            });
        }
    }

    /**
     * Refuses an ALTER whose resulting properties change the function. Setting the value it already
     * has is allowed (so is naming {@code tributary} on a table that predates the property), so
     * scripts that re-apply all properties keep working.
     *
     * @throws InvalidInputException naming the table, the current function and what to do instead
     */
    static void checkAlter(TablePath path, TableDescriptor before, Map<String, String> after) {
        BucketFunctionType now = BucketFunctionType.of(before);
        BucketFunctionType next = BucketFunctionType.of(before.withProperties(after));
        if (now != next) {
            throw new InvalidInputException(
                    "'"
                            + TableOptions.BUCKET_FUNCTION.key()
                            + "' of table "
                            + path
                            + " cannot be changed from '"
                            + now.value()
                            + "' to '"
                            + next.value()
                            + "': the table's rows are stored in the buckets its function chose"
                            + " when they were written. Create a new table with "
                            + TableOptions.BUCKET_FUNCTION.key()
                            + "="
                            + next.value()
                            + " and copy the data into it");
        }
    }
}
