package dev.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.client.Connection;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T49: a client takes a list of server addresses and uses the first that answers, in order, moving
 * on when its server goes away. Real servers and the real client over loopback.
 */
class ServerAddressListITCase {
    private static final TablePath T = TablePath.of("db", "events");

    @TempDir Path dir;

    /** A loopback port nothing listens on: connecting to it is refused at once. */
    private static int unusedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void aDeadFirstAddressIsSkippedAndAWriterFollowsTheServerToItsNextAddress() throws Exception {
        int dead = unusedPort();
        int second = unusedPort();
        List<Long> written = new ArrayList<>();
        TributaryServer first = TestServers.start(dir);
        String list = "127.0.0.1:" + dead + "," + first.rpcTarget() + ",127.0.0.1:" + second;
        try (Connection conn = Connection.open(list)) {
            conn.admin().createDatabase("db", false);
            conn.admin()
                    .createTable(
                            T,
                            TableDescriptor.builder(
                                            Schema.newBuilder()
                                                    .column("id", DataTypes.BIGINT())
                                                    .build())
                                    .bucketCount(1)
                                    .build(),
                            false);
            try (AppendWriter w = conn.appendWriter(T)) {
                for (long i = 0; i < 100; i++) {
                    w.append(Row.of(i));
                    written.add(i);
                }
                w.flush();

                // the server moves to the list's third address: same data, another port
                first.close();
                try (TributaryServer moved =
                        TestServers.start(dir, Map.of("server.rpc.port", "" + second))) {
                    for (long i = 100; i < 200; i++) {
                        w.append(Row.of(i));
                        written.add(i);
                    }
                    w.flush();
                    List<Long> read = new ArrayList<>();
                    for (LogRecord r : conn.logScanner(T).readAll(0)) {
                        read.add(r.row().getLong(0));
                    }
                    assertThat(read).as("every row once, in order").isEqualTo(written);
                    assertThat(conn.admin().listTables("db")).containsExactly("events");
                    assertThat(moved.rpcPort()).isEqualTo(second);
                }
            }
        } finally {
            first.close();
        }
    }

    @Test
    void aMalformedListIsRefusedNamingTheEntry() {
        assertThatThrownBy(() -> Connection.open("127.0.0.1:9123,localhost"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("'localhost'")
                .hasMessageContaining("is not host:port");
    }
}
