package dev.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.client.Connection;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.TableInfo;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Extensions see every table's life through the real gRPC path, including the drop's lake flag. */
class ServerExtensionITCase {
    private static final Schema SCHEMA =
            Schema.of(List.of(new Column("id", DataTypes.BIGINT(), null)), List.of());

    /** Records the callbacks in order, as "event:table[:flag]". */
    static final class Recording implements ServerExtension {
        final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        public void onTableCreated(TableInfo table) {
            events.add("created:" + table.path());
        }

        @Override
        public void onTableDropped(TableInfo table, boolean dropLakeTable) {
            events.add("dropped:" + table.path() + ":" + dropLakeTable);
        }
    }

    @Test
    void aDropTellsExtensionsWhetherTheLakeTableGoesToo(@TempDir Path dir) throws Exception {
        Recording ext = new Recording();
        Configuration conf =
                new Configuration()
                        .setString("data.dir", dir.toString())
                        .setString("server.rpc.port", "0")
                        .setString("server.http.port", "-1");
        TablePath kept = TablePath.of("db", "kept");
        TablePath purged = TablePath.of("db", "purged");
        try (TributaryServer server = TributaryServer.start(conf, Clock.system(), List.of(ext));
                Connection conn = Connection.open(server.rpcTarget())) {
            conn.admin().createDatabase("db", false);
            TableDescriptor d = TableDescriptor.builder(SCHEMA).bucketCount(1).build();
            conn.admin().createTable(kept, d, false);
            conn.admin().createTable(purged, d, false);
            conn.admin().dropTable(kept, false);
            conn.admin().dropTable(purged, false, true);
            conn.admin().dropTable(purged, true, true); // already gone: no callback
        }
        assertThat(ext.events)
                .containsExactly(
                        "created:db.kept",
                        "created:db.purged",
                        "dropped:db.kept:false",
                        "dropped:db.purged:true");
    }
}
