package dev.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.client.Connection;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.server.TributaryServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tributary server} as a separate process: it prints its bound address, serves writes, and
 * on SIGTERM shuts down gracefully, so everything acknowledged is there after a restart.
 */
class ServerProcessITCase {
    @TempDir Path dir;

    @Test
    void sigtermShutsDownGracefullyAndKeepsAcknowledgedWrites() throws Exception {
        Path data = dir.resolve("data");
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        Process p =
                new ProcessBuilder(
                                java,
                                "-cp",
                                System.getProperty("java.class.path"),
                                TributaryCli.class.getName(),
                                "server",
                                "--set",
                                "server.rpc.port=0",
                                "--set",
                                "server.http.port=-1",
                                "--set",
                                "data.dir=" + data)
                        .redirectError(dir.resolve("stderr.txt").toFile())
                        .start();
        long acked;
        try {
            BufferedReader out =
                    new BufferedReader(
                            new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            assertThat(line).as(Files.readString(dir.resolve("stderr.txt"))).isNotNull();
            Matcher m = Pattern.compile("rpc=(\\S+)").matcher(line);
            assertThat(m.find()).as(line).isTrue();
            TablePath path = TablePath.of("db", "t");
            try (Connection conn = Connection.open(m.group(1))) {
                conn.admin().createDatabase("db", false);
                conn.admin()
                        .createTable(
                                path,
                                TableDescriptor.builder(
                                                Schema.newBuilder()
                                                        .column("id", DataTypes.BIGINT())
                                                        .build())
                                        .build(),
                                false);
                try (AppendWriter w = conn.appendWriter(path)) {
                    for (long i = 0; i < 20_000; i++) {
                        w.append(Row.of(i));
                    }
                    w.flush();
                }
                acked = conn.logScanner(path).endOffsets().get(0);
            }
        } finally {
            p.destroy(); // SIGTERM
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.readString(dir.resolve("stderr.txt"))).contains("stopped");
        assertThat(acked).isEqualTo(20_000);

        Configuration conf = new Configuration();
        conf.setString("data.dir", data.toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "-1");
        try (TributaryServer server = TributaryServer.start(conf, Clock.system(), List.of());
                Connection conn = Connection.open(server.rpcTarget())) {
            assertThat(conn.logScanner(TablePath.of("db", "t")).endOffsets().get(0))
                    .isEqualTo(acked);
        }
    }
}
