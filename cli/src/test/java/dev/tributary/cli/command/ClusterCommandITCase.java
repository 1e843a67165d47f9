package dev.tributary.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.cli.TributaryCli;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.time.Clock;
import dev.tributary.server.TributaryServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tributary cluster} against a real server on loopback (T49). */
class ClusterCommandITCase {
    @TempDir Path dir;

    record Result(int code, String out, String err) {}

    private static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = TributaryCli.execute(args, new PrintWriter(out), new PrintWriter(err));
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    @DisplayName("a lone server lists itself, server 0, as the coordinator")
    void loneServer() {
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "-1");
        try (TributaryServer server = TributaryServer.start(conf, Clock.system(), List.of())) {
            // the server heartbeats itself right after it registered: wait for the first one
            Result r =
                    await().atMost(Duration.ofSeconds(30))
                            .until(
                                    () -> run("cluster", "--address", server.rpcTarget()),
                                    res -> res.code() != 0 || res.out().contains("ALIVE"));
            assertThat(r.code()).as(r.toString()).isZero();
            List<String> lines = r.out().lines().toList();
            assertThat(lines.get(0)).isEqualTo("cluster: (a lone server)   coordinator: server 0");
            assertThat(lines.get(1))
                    .isEqualTo("buckets: 0   under-replicated: 0   without a leader: 0");
            assertThat(lines.get(2))
                    .contains(
                            "SERVER",
                            "RPC ADDRESS",
                            "HTTP ADDRESS",
                            "ROLE",
                            "LIVENESS",
                            "LAST HEARTBEAT",
                            "BUCKETS",
                            "REPORTED");
            assertThat(lines).hasSize(4);
            assertThat(lines.get(3).split("\\s+")).startsWith("0", server.rpcTarget(), "-");
            Matcher m =
                    Pattern.compile("coordinator\\s+ALIVE\\s+(\\d+) ms ago\\s+0\\s+0\\s*$")
                            .matcher(lines.get(3));
            assertThat(m.find()).as(lines.get(3)).isTrue();
            // heartbeats every 2 s by default: the last one is recent
            assertThat(Long.parseLong(m.group(1))).isLessThan(8_000);
        }
    }

    @Test
    @DisplayName("an unreachable server is one error line, no stack trace")
    void unreachable() {
        Result r = run("cluster", "--address", "127.0.0.1:1");
        assertThat(r.code()).as(r.toString()).isEqualTo(TributaryCli.USER_ERROR);
        assertThat(r.err()).startsWith("error: ").doesNotContain("\tat ");
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.out()).isEmpty();
    }
}
