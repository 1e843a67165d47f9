package dev.tributary.coordinator.metadata;

import dev.tributary.common.config.TableOptions;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A table's replication factor ({@code table.replication.factor}, T50) is chosen once and never
 * exceeds the servers that could hold the copies.
 */
final class ReplicationRules {
    /** The copies a table gets when it does not say, servers permitting: Kafka's usual three. */
    static final int DEFAULT_FACTOR = 3;

    private ReplicationRules() {}

    /**
     * The table as it is created: a table that does not set its factor gets {@link #DEFAULT_FACTOR}
     * copies, or one per registered server if there are fewer, recorded in its properties so that
     * servers joining later do not change it. A lone server's tables keep one copy (the option's
     * default, not recorded).
     */
    static TableDescriptor withFactorChosen(TableDescriptor table, int servers) {
        String key = TableOptions.REPLICATION_FACTOR.key();
        int factor = Math.min(DEFAULT_FACTOR, servers);
        if (table.properties().containsKey(key) || factor <= 1) {
            return table;
        }
        Map<String, String> props = new LinkedHashMap<>(table.properties());
        props.put(key, Integer.toString(factor));
        return table.withProperties(props);
    }

    /** The replication factor a table asks for. */
    static int replicationFactor(TableDescriptor table) {
        return TableOptions.REPLICATION_FACTOR.parse(
                table.properties().get(TableOptions.REPLICATION_FACTOR.key()));
    }

    /**
     * @param servers the registered servers
     * @throws InvalidInputException if the table asks for more copies than servers
     */
    static void validateCreate(TableDescriptor table, int servers) {
        int rf = replicationFactor(table);
        if (rf > 1 && rf > servers) {
            throw new InvalidInputException(
                    "'"
                            + TableOptions.REPLICATION_FACTOR.key()
                            + "' "
                            + rf
                            + " needs "
                            + rf
                            + " servers and "
                            + servers
                            + " are registered: lower it, or start more servers first");
        }
    }

    /**
     * @throws InvalidInputException if an ALTER would change the replication factor
     */
    static void checkAlter(TablePath path, TableDescriptor before, Map<String, String> after) {
        int now = replicationFactor(before);
        int next = replicationFactor(before.withProperties(after));
        if (now != next) {
            throw new InvalidInputException(
                    "'"
                            + TableOptions.REPLICATION_FACTOR.key()
                            + "' of table "
                            + path
                            + " cannot be changed from "
                            + now
                            + " to "
                            + next
                            + ": moving replicas is not supported yet. Create a new table with"
                            + " the factor you want and copy the data into it");
        }
    }
}
