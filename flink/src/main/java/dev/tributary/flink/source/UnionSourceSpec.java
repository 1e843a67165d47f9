package dev.tributary.flink.source;

import dev.tributary.client.Connection;
import dev.tributary.common.id.TablePath;
import dev.tributary.flink.catalog.ConnectionConfig;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.read.LakePredicate;
import dev.tributary.union.UnionReadMode;
import dev.tributary.union.UnionScan;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;

/**
 * What a union source reads, shipped to the enumerator and every reader.
 *
 * @param connection how to reach the server and its lake
 * @param table {@code db.table}
 * @param columns the projected columns, in output order
 * @param filter pushed-down filter, null for none
 * @param follow after the union read, follow the log (unbounded source)
 * @param pollInterval how long a caught-up follower waits before asking again
 * @param partitionDiscoveryInterval how often a following read of a partitioned table lists its
 *     partitions for new ones
 * @param fetchRecords records per fetch handed to Flink
 */
public record UnionSourceSpec(
        ConnectionConfig connection,
        String table,
        List<String> columns,
        LakePredicate filter,
        boolean follow,
        Duration pollInterval,
        Duration partitionDiscoveryInterval,
        int fetchRecords)
        implements Serializable {

    public UnionSourceSpec {
        columns = List.copyOf(columns);
    }

    /** A scan of this spec over an open connection and lake (null: store only). */
    public UnionScan scan(Connection conn, LakeStorage lake) {
        return UnionScan.builder(conn, TablePath.parse(table))
                .lake(lake)
                .columns(columns)
                .filter(filter)
                .mode(follow ? UnionReadMode.STREAMING : UnionReadMode.BATCH)
                .build();
    }
}
