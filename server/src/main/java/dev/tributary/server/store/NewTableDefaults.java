package dev.tributary.server.store;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.TableOptions;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.row.BucketFunctionType;
import dev.tributary.common.types.TableDescriptor;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fills in what a CREATE TABLE leaves to the server: the table's bucket function (T36), which the
 * table keeps for its whole life.
 *
 * <p>Unless the user names one, every new table gets the function of the lake format it is (or
 * would be) tiered into: its {@code table.datalake.format}, else the server's {@code
 * datalake.format}. Every table, not only lake-enabled ones, because the function can never change
 * afterwards and enabling the lake later is a normal step (T11): a table created aligned tiers
 * aligned whenever it is enabled, and the lake functions cost the store and the client no more than
 * Tributary's own.
 *
 * <p>When the format cannot bucket the table's key (Iceberg: several columns, or BOOLEAN, FLOAT,
 * DOUBLE): a lake-enabled table is refused with the reason and the ways out, since creating it
 * would silently give a lake table engines cannot prune and rounds that fan out; a table not
 * enabled for the lake gets {@code tributary}, since a store-only table must not fail over a lake
 * rule; if it is enabled later it tiers correctly, fans out, and its status says so.
 */
public final class NewTableDefaults {
    private static final Logger LOG = LoggerFactory.getLogger(NewTableDefaults.class);

    private final String serverLakeFormat;

    /**
     * @param serverLakeFormat the server's {@code datalake.format}
     */
    public NewTableDefaults(String serverLakeFormat) {
        this.serverLakeFormat = serverLakeFormat;
    }

    /**
     * The descriptor to create.
     *
     * @throws InvalidInputException for a lake-enabled table whose key the lake format's function
     *     cannot bucket
     */
    public TableDescriptor apply(TableDescriptor table) {
        Map<String, String> props = table.properties();
        if (props.containsKey(TableOptions.BUCKET_FUNCTION.key())) {
            return table; // the user's choice, validated by the coordinator
        }
        Configuration conf = Configuration.fromMap(props);
        String format =
                Optional.ofNullable(props.get(TableOptions.DATALAKE_FORMAT.key()))
                        .map(f -> conf.get(TableOptions.DATALAKE_FORMAT))
                        .orElse(serverLakeFormat);
        // a format plugin Tributary has no function for: its own hash, as before T36
        BucketFunctionType type =
                BucketFunctionType.alignedWith(format).orElse(BucketFunctionType.TRIBUTARY);
        Optional<String> unsupported =
                table.bucketKeys().isEmpty()
                        ? Optional.empty()
                        : type.unsupportedReason(table.schema(), table.bucketKeys());
        if (unsupported.isPresent()) {
            if (conf.get(TableOptions.DATALAKE_ENABLED)) {
                throw new InvalidInputException(
                        "the table is tiered into " + format + ", and " + unsupported.get());
            }
            LOG.info(
                    "new table keyed by {} gets bucket function 'tributary': {}",
                    table.bucketKeys(),
                    unsupported.get());
            type = BucketFunctionType.TRIBUTARY;
        }
        Map<String, String> withFunction = new LinkedHashMap<>(props);
        withFunction.put(TableOptions.BUCKET_FUNCTION.key(), type.value());
        return table.withProperties(withFunction);
    }
}
