package dev.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.cli.output.TextTable;
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
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tributary query}: Flink SQL on the embedded MiniCluster against a real server. */
class QueryCommandITCase {
    @TempDir static Path dir;
    private static TributaryServer server;

    record Result(int code, String out, String err) {}

    @BeforeAll
    static void startServer() throws Exception {
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.resolve("data").toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "-1");
        server = TributaryServer.start(conf, Clock.system(), List.of());
        try (Connection conn = Connection.open(server.rpcTarget())) {
            conn.admin().createDatabase("shop", true);
            TablePath orders = TablePath.of("shop", "orders");
            conn.admin()
                    .createTable(
                            orders,
                            TableDescriptor.builder(
                                            Schema.newBuilder()
                                                    .column("id", DataTypes.BIGINT())
                                                    .column("item", DataTypes.STRING())
                                                    .column("amount", DataTypes.INT())
                                                    .build())
                                    .bucketCount(2)
                                    .build(),
                            false);
            conn.admin()
                    .createTable(
                            TablePath.of("shop", "visits"),
                            TableDescriptor.builder(
                                            Schema.newBuilder()
                                                    .column("id", DataTypes.BIGINT())
                                                    .column("dt", DataTypes.STRING())
                                                    .build())
                                    .partitionKeys("dt")
                                    .bucketCount(2)
                                    .build(),
                            false);
            try (AppendWriter w = conn.appendWriter(orders)) {
                for (long i = 0; i < 100; i++) {
                    w.append(Row.of(i, "item-" + (i % 3), (int) i));
                }
                w.flush();
            }
        }
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    private Result run(String... args) {
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--address";
        all[args.length + 1] = server.rpcTarget();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = TributaryCli.execute(all, new PrintWriter(out), new PrintWriter(err));
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void t41_queryPrintsATableAndExplainShowsThePushedFilter() {
        Result r =
                run(
                        "query",
                        "SELECT item, COUNT(*) AS n, SUM(amount) AS total FROM shop.orders"
                                + " WHERE amount >= 10 GROUP BY item");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("item").contains("total").contains("3 rows");
        // item-0: ids 12, 15, ..., 99 (30 of them, sum 1665)
        assertThat(r.out()).containsPattern("item-0\\s*\\|?\\s*30\\s*\\|?\\s*1665");

        Result explain = run("query", "--explain", "SELECT id FROM shop.orders WHERE amount < 5");
        assertThat(explain.code()).as(explain.toString()).isZero();
        assertThat(explain.out()).contains("filter=[<(amount, 5)]");
    }

    @Test
    void t41_aBadQueryIsOneLineWithoutAStackTrace() {
        Result r = run("query", "SELECT nope FROM shop.orders");
        assertThat(r.code()).isEqualTo(TributaryCli.USER_ERROR);
        assertThat(r.err()).startsWith("error: ").contains("nope").doesNotContain("\tat ");
        assertThat(r.err().lines()).as(r.toString()).hasSize(1);
    }

    /**
     * {@code bin/tributary query} as a user runs it: its own process with the shipped
     * conf/log4j2.xml at the level bin/tributary sets for client commands.
     */
    private Result runProcess(String... args) throws Exception {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command =
                new ArrayList<>(
                        List.of(
                                java,
                                "-Dtributary.log.level=WARN",
                                "-Dlog4j2.shutdownHookEnabled=false",
                                "-Dlog4j2.configurationFile="
                                        + Paths.get("..", "conf", "log4j2.xml").toAbsolutePath(),
                                "-cp",
                                System.getProperty("java.class.path"),
                                TributaryCli.class.getName()));
        command.addAll(List.of(args));
        command.addAll(
                List.of(
                        "--address",
                        server.rpcTarget(),
                        "--log-dir",
                        dir.resolve("query-log").toString()));
        Path stdout = Files.createTempFile(dir, "stdout", ".txt");
        Path stderr = Files.createTempFile(dir, "stderr", ".txt");
        Process p =
                new ProcessBuilder(command)
                        .redirectOutput(stdout.toFile())
                        .redirectError(stderr.toFile())
                        .start();
        assertThat(p.waitFor(3, TimeUnit.MINUTES)).as("query process ended").isTrue();
        return new Result(p.exitValue(), Files.readString(stdout), Files.readString(stderr));
    }

    @Test
    void t41_theCommandPrintsOnlyItsResultAndLibraryLinesGoToTheLogFile() throws Exception {
        Result r = runProcess("query", "SELECT COUNT(*) AS n FROM shop.orders");
        StringWriter expected = new StringWriter();
        try (PrintWriter w = new PrintWriter(expected)) {
            new TextTable("n").row(100L).print(w);
            w.println("1 row");
        }
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).as(r.toString()).isEqualTo(expected.toString());
        // no "Failed to get job status ... Some data might be lost", no library WARN lines
        assertThat(r.err()).as(r.toString()).isEmpty();
        assertThat(dir.resolve("query-log").resolve("tributary.log"))
                .as("Flink's lines went to the log file")
                .content()
                .contains("org.apache.flink")
                .doesNotContain("Some data might be lost")
                .doesNotContain("has already been shut down");
    }

    @Test
    void t41_aBadQueryInItsOwnProcessIsOneErrorLine() throws Exception {
        Result r = runProcess("query", "SELECT nope FROM shop.orders");
        assertThat(r.code()).as(r.toString()).isEqualTo(TributaryCli.USER_ERROR);
        assertThat(r.out()).as(r.toString()).isEmpty();
        assertThat(r.err().lines())
                .as(r.toString())
                .singleElement()
                .satisfies(
                        l ->
                                assertThat(l)
                                        .startsWith("error: ")
                                        .contains("Column 'nope' not found"));

        Result parse = runProcess("query", "SELEC id FROM shop.orders");
        assertThat(parse.code()).as(parse.toString()).isEqualTo(TributaryCli.USER_ERROR);
        assertThat(parse.err().lines())
                .as(parse.toString())
                .singleElement()
                .satisfies(l -> assertThat(l).startsWith("error: ").contains("SELEC"));
    }

    @Test
    void t40_t32_aPartitionedTableIsReadAcrossItsPartitions() throws Exception {
        try (Connection conn = Connection.open(server.rpcTarget());
                AppendWriter w = conn.appendWriter(TablePath.of("shop", "visits"))) {
            for (long i = 0; i < 30; i++) {
                w.append(Row.of(i, "2026-12-0" + (1 + i % 3)));
            }
            w.flush();
        }
        Result r =
                run(
                        "query",
                        "SELECT dt, COUNT(*) AS n FROM shop.visits WHERE dt <> '2026-12-03' GROUP BY dt");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out())
                .containsPattern("2026-12-01\\s*\\|?\\s*10")
                .containsPattern("2026-12-02\\s*\\|?\\s*10")
                .doesNotContain("2026-12-03")
                .contains("2 rows");
    }
}
