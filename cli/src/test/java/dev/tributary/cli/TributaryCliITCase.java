package dev.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.LogBatch;
import dev.tributary.common.record.LogBatches;
import dev.tributary.common.time.Clock;
import dev.tributary.server.TributaryServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Drives {@link TributaryCli} as a user would, against a real server on loopback. */
class TributaryCliITCase {
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
        Files.createDirectories(dir.resolve("in"));
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    private Result run(String... args) {
        List<String> all = new ArrayList<>(Arrays.asList(args));
        if (all.size() > 1 && !all.contains("--help") && !all.get(0).equals("server")) {
            all.add("--address");
            all.add(server.rpcTarget());
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code =
                TributaryCli.execute(
                        all.toArray(new String[0]), new PrintWriter(out), new PrintWriter(err));
        return new Result(code, out.toString(), err.toString());
    }

    private static void assertUserError(Result r, String... fragments) {
        assertThat(r.code()).as(r.toString()).isEqualTo(TributaryCli.USER_ERROR);
        assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
        assertThat(r.err()).startsWith("error: ").doesNotContain("\tat ");
        for (String f : fragments) {
            assertThat(r.err()).contains(f);
        }
    }

    @Test
    void aUserSession() throws Exception {
        assertThat(run("db", "create", "shop").out()).contains("created database shop");
        Result created =
                run(
                        "table",
                        "create",
                        "shop.users",
                        "--schema",
                        "id BIGINT, name STRING, balance DECIMAL(10, 2), PRIMARY KEY (id)",
                        "--buckets",
                        "2");
        assertThat(created.code()).as(created.toString()).isZero();
        Path schemaFile = dir.resolve("in/clicks.json");
        Files.writeString(
                schemaFile,
                "{\"columns\":[{\"name\":\"id\",\"type\":\"BIGINT\"},"
                        + "{\"name\":\"page\",\"type\":\"STRING\"},"
                        + "{\"name\":\"at\",\"type\":\"TIMESTAMP(3)\"}],"
                        + "\"buckets\":3,\"properties\":{\"table.log.ttl\":\"7d\"}}");
        assertThat(
                        run(
                                        "table",
                                        "create",
                                        "shop.clicks",
                                        "--schema-file",
                                        schemaFile.toString())
                                .code())
                .isZero();
        assertThat(run("table", "list", "shop").out().lines()).containsExactly("clicks", "users");

        Path csv = dir.resolve("in/users.csv");
        Files.writeString(
                csv, "id,name,balance\n1,ann,10.50\n2,\"bob, jr\",0.00\n3,,7.25\n2,bobby,1.00\n");
        Result write = run("write", "shop.users", "--file", csv.toString(), "--header", "--quiet");
        assertThat(write.code()).as(write.toString()).isZero();
        assertThat(write.out()).contains("wrote 4 rows to shop.users");
        assertThat(run("lookup", "shop.users", "2").out().strip()).isEqualTo("2\tbobby\t1.00");
        assertThat(run("lookup", "shop.users", "3").out().strip()).isEqualTo("3\tNULL\t7.25");

        Path jsonl = dir.resolve("in/clicks.jsonl");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 500; i++) {
            sb.append("{\"id\":")
                    .append(i)
                    .append(",\"page\":\"p")
                    .append(i % 5)
                    .append("\",\"at\":\"2026-11-29T10:00:00.123\"}\n");
        }
        Files.writeString(jsonl, sb);
        Result w2 = run("write", "shop.clicks", "--format", "json", "--file", jsonl.toString());
        assertThat(w2.code()).as(w2.toString()).isZero();
        assertThat(w2.out()).contains("wrote 500 rows");
        // T42: the CLI writes as an idempotent writer by default
        var clicks = server.coordinator().cachedTable(TablePath.of("shop", "clicks")).orElseThrow();
        int batches = 0;
        for (int bucket = 0; bucket < clicks.descriptor().bucketCount(); bucket++) {
            TableBucket tb = new TableBucket(clicks.tableId(), bucket);
            for (LogBatch batch : LogBatches.of(server.store().read(tb, 0, 1 << 20).records())) {
                assertThat(batch.writerId()).as("writer of %s", tb).isNotZero();
                assertThat(batch.writerSequence()).isNotNegative();
                batches++;
            }
        }
        assertThat(batches).isPositive();
        Result scan = run("scan", "shop.clicks");
        assertThat(scan.out().lines()).hasSize(500);
        assertThat(scan.out()).contains("+A\t7\tp2\t2026-11-29T10:00:00.123");
        assertThat(run("scan", "shop.clicks", "--bucket", "0", "--limit", "3").out().lines())
                .hasSize(3);
        Result changelog = run("scan", "shop.users");
        assertThat(changelog.out()).contains("-U\t2\tbob, jr").contains("+U\t2\tbobby");

        Result describe = run("table", "describe", "shop.users");
        assertThat(describe.out())
                .contains("primary key [id]")
                .contains("DECIMAL(10, 2)")
                .contains("end offsets")
                // a lone server (id 0) holds the one replica of each bucket
                .contains("replicas:    2 buckets, 0 under-replicated, 0 without a leader")
                .containsPattern("(?m)^0 +0 +0 +\\[0\\] +\\[0\\] +in sync$")
                .containsPattern("(?m)^1 +0 +0 +\\[0\\] +\\[0\\] +in sync$");
        Result alter =
                run(
                        "table",
                        "alter",
                        "shop.clicks",
                        "--add-column",
                        "referrer STRING",
                        "--set",
                        "table.datalake.freshness=1min");
        assertThat(alter.code()).as(alter.toString()).isZero();
        assertThat(run("table", "describe", "shop.clicks").out())
                .contains("referrer")
                .contains("table.datalake.freshness = 1min");
        // T36: tables get the lake format's bucket function; one with another is tiered with a
        // warning
        assertThat(run("table", "describe", "shop.users").out())
                .contains("table.bucket.function = paimon");
        Result legacy =
                run(
                        "table",
                        "create",
                        "shop.legacy",
                        "--schema",
                        "id BIGINT, PRIMARY KEY (id)",
                        "--buckets",
                        "4",
                        "--property",
                        "table.bucket.function=tributary",
                        "--property",
                        "table.datalake.enabled=true",
                        "--property",
                        "table.datalake.freshness=1h");
        assertThat(legacy.code()).as(legacy.toString()).isZero();
        Result status = run("tiering", "status");
        assertThat(status.code()).as(status.toString()).isZero();
        assertThat(status.out()).contains("STATE").contains("LAG RECORDS");
        // T46: where other engines find the lake tables
        assertThat(status.out())
                .containsPattern("lake: paimon   catalog: filesystem   warehouse: file:/\\S+");
        assertThat(status.out())
                .contains(
                        "warning: shop.legacy: bucket function 'tributary' is not the lake"
                                + " format's ('paimon')");
        assertThat(run("table", "drop", "shop.legacy").code()).isZero();

        assertThat(run("table", "drop", "shop.clicks").code()).isZero();
        assertThat(run("table", "list", "shop").out().lines()).containsExactly("users");
    }

    @Test
    void writeWithAnOpColumnUpsertsAndDeletesAndCountsDeletesOfAbsentKeys() throws Exception {
        run("db", "create", "ops", "--if-not-exists");
        Result created =
                run(
                        "table",
                        "create",
                        "ops.users",
                        "--schema",
                        "id BIGINT, name STRING NOT NULL, PRIMARY KEY (id)",
                        "--buckets",
                        "2");
        assertThat(created.code()).as(created.toString()).isZero();
        Path csv = dir.resolve("in/ops.csv");
        Files.writeString(
                csv,
                "op,id,name\n"
                        + "+I,1,ann\n"
                        + "+I,2,bob\n"
                        + "insert,3,cy\n"
                        + "+U,2,bobby\n"
                        + "-D,1,\n" // only the key is needed
                        + "delete,99,\n" // no such row: counted, not an error
                        + "-D,1,\n"); // deleted just above
        Result w =
                run(
                        "write",
                        "ops.users",
                        "--file",
                        csv.toString(),
                        "--header",
                        "--op-column",
                        "op",
                        "--quiet");
        assertThat(w.code()).as(w.toString()).isZero();
        assertThat(w.out())
                .contains(
                        "wrote 7 rows to ops.users: 4 upserts, 3 deletes (2 of them found no row)");
        assertThat(run("lookup", "ops.users", "1").out()).doesNotContain("ann");
        assertThat(run("lookup", "ops.users", "2").out().strip()).isEqualTo("2\tbobby");
        Result changelog = run("scan", "ops.users");
        assertThat(changelog.out()).contains("-D\t1\tann").contains("+U\t2\tbobby");
        // deleting a key twice, or one that never existed, leaves no changelog record
        assertThat(changelog.out().split("-D\t", -1)).hasSize(2);

        Path jsonl = dir.resolve("in/ops.jsonl");
        Files.writeString(
                jsonl, "{\"op\":\"-D\",\"id\":3}\n{\"op\":\"+I\",\"id\":4,\"name\":\"di\"}\n");
        Result j =
                run(
                        "write",
                        "ops.users",
                        "--format",
                        "json",
                        "--file",
                        jsonl.toString(),
                        "--op-column",
                        "op",
                        "--quiet");
        assertThat(j.out()).contains("1 upserts, 1 deletes (0 of them found no row)");
        assertThat(run("lookup", "ops.users", "3").out()).doesNotContain("cy");

        Path bad = dir.resolve("in/ops-bad.csv");
        Files.writeString(bad, "op,id,name\n+I,5,ed\n-U,2,bob\n");
        assertUserError(
                run(
                        "write",
                        "ops.users",
                        "--file",
                        bad.toString(),
                        "--header",
                        "--op-column",
                        "op",
                        "--quiet"),
                "line 3",
                "-U",
                "+U");
        Path noOp = dir.resolve("in/ops-none.csv");
        Files.writeString(noOp, "id,name\n6,fay\n");
        assertUserError(
                run(
                        "write",
                        "ops.users",
                        "--file",
                        noOp.toString(),
                        "--header",
                        "--op-column",
                        "op",
                        "--quiet"),
                "no op column 'op'");
        assertUserError(
                run("write", "ops.users", "--file", bad.toString(), "--op-column", "op"),
                "--header");
        run("table", "create", "ops.log", "--schema", "id BIGINT");
        assertUserError(
                run("write", "ops.log", "--file", bad.toString(), "--header", "--op-column", "op"),
                "log table");
    }

    @Test
    void t56_aTableOptionTypoIsRefusedWithTheClosestKeyAndNoTableExists() {
        assertThat(run("db", "create", "t56").code()).isZero();
        Result typo =
                run(
                        "table",
                        "create",
                        "t56.clicks",
                        "--schema",
                        "id BIGINT",
                        "--property",
                        "table.datalake.freshnes=10s");
        assertUserError(
                typo,
                "unknown table option 'table.datalake.freshnes'; did you mean"
                        + " 'table.datalake.freshness'?");
        assertThat(run("table", "list", "t56").out()).doesNotContain("clicks");
        assertUserError(run("table", "describe", "t56.clicks"), "t56.clicks");

        assertThat(run("table", "create", "t56.clicks", "--schema", "id BIGINT").code()).isZero();
        assertUserError(
                run("table", "alter", "t56.clicks", "--set", "table.log.tll=1d"),
                "did you mean 'table.log.ttl'?");
        assertThat(run("table", "describe", "t56.clicks").out()).doesNotContain("table.log.tll");
    }

    @Test
    void userErrorsPrintOneLineAndExitNonZero() throws Exception {
        run("db", "create", "errs", "--if-not-exists");
        assertUserError(run("table", "describe", "errs.nope"), "errs.nope");
        assertUserError(
                run(
                        "table",
                        "create",
                        "errs.t",
                        "--schema",
                        "id BIGINT",
                        "-p",
                        "table.datalake.freshness=abc"),
                "table.datalake.freshness",
                "abc");
        assertUserError(
                run("table", "create", "errs.t", "--schema", "id BIGINT", "--buckets", "0"),
                "bucket.num");
        assertUserError(run("table", "create", "errs.t", "--schema", "id WHATEVER"), "WHATEVER");
        assertUserError(run("table", "create", "bad-path", "--schema", "id INT"), "bad-path");
        assertThat(run("table", "create", "errs.t", "--schema", "id BIGINT, v INT").code())
                .isZero();

        Path csv = dir.resolve("in/bad.csv");
        Files.writeString(csv, "1,10\n2,20\nthree,30\n4,40\n");
        assertUserError(
                run("write", "errs.t", "--file", csv.toString(), "--quiet"), "line 3", "three");
        // the two lines before the bad one were written
        assertThat(run("scan", "errs.t").out().lines()).hasSize(2);
        assertUserError(run("lookup", "errs.t", "1"), "no primary key");

        // the server is not there
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code =
                TributaryCli.execute(
                        new String[] {"table", "list", "errs", "--address", "127.0.0.1:1"},
                        new PrintWriter(out),
                        new PrintWriter(err));
        assertThat(code).isEqualTo(TributaryCli.USER_ERROR);
        assertThat(err.toString()).startsWith("error: ").doesNotContain("\tat ");

        // --verbose adds the stack trace
        Result verbose = run("table", "describe", "errs.nope", "--verbose");
        assertThat(verbose.code()).isEqualTo(TributaryCli.USER_ERROR);
        assertThat(verbose.err()).contains("\tat ");

        // usage errors and help
        Result usage = run("table", "create", "errs.x", "--no-such-flag");
        assertThat(usage.code()).isEqualTo(TributaryCli.USAGE_ERROR);
        assertThat(usage.err()).contains("--no-such-flag").contains("--help");
        Result help = run("table", "create", "--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("Usage: tributary table create");
        assertThat(run("--help").out()).contains("server").contains("tiering");
        Result badConf = run("server", "--set", "server.rpc.port=abc");
        assertUserError(badConf, "server.rpc.port", "abc");
        // a second server on the running server's data directory
        Result sameDir =
                run(
                        "server",
                        "--set",
                        "data.dir=" + dir.resolve("data"),
                        "--set",
                        "server.rpc.port=0",
                        "--set",
                        "server.http.port=-1");
        assertUserError(sameDir, "is in use by another Tributary server", "another data.dir");
    }
}
