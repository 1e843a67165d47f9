package dev.tributary.coordinator.metadata;

import dev.tributary.common.config.TableOptions;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import java.util.Map;

/**
 * A table's replication factor ({@code table.replication.factor}, T50) is chosen once, for log
 * tables only until primary-key buckets replicate their KV state, and never exceeds the servers
 * that could hold the copies.
 */
final class ReplicationRules {
    private ReplicationRules() {}

    /** The replication factor a table asks for. */
    static int replicationFactor(TableDescriptor table) {
        return TableOptions.REPLICATION_FACTOR.parse(
                table.properties().get(TableOptions.REPLICATION_FACTOR.key()));
    }

    /**
     * @param servers the registered servers
     * @throws InvalidInputException if the table asks for more copies than servers, or for copies
     *     of a primary-key table
     */
    static void validateCreate(TableDescriptor table, int servers) {
        int rf = replicationFactor(table);
        if (rf > 1 && table.schema().hasPrimaryKey()) {
            throw new InvalidInputException(
                    "'"
                            + TableOptions.REPLICATION_FACTOR.key()
                            + "' "
                            + rf
                            + " is not supported for primary-key tables yet (their followers do"
                            + " not keep the KV state); create it with 1, or make it a log table");
        }
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
