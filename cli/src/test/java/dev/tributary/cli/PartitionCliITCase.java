package dev.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tributary.cli.input.SchemaParser;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.server.TributaryServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T30 from the command line: PARTITIONED BY in DDL and schema files, partition add/drop/list; T35:
 * lag per partition in {@code tiering status --partitions} and {@code /api/tiering?table=db.t}.
 */
class PartitionCliITCase {
    @TempDir static Path dir;
    private static TributaryServer server;

    record Result(int code, String out, String err) {}

    @BeforeAll
    static void startServer() throws Exception {
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.resolve("data").toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "0");
        // a lake but no tiering job: every stored record of a lake table is lag
        conf.setString("datalake.format", "paimon");
        conf.setString(
                "datalake.paimon.warehouse", dir.resolve("lake").toFile().toURI().toString());
        server = TributaryServer.start(conf, Clock.system(), List.of());
        Files.createDirectories(dir.resolve("in"));
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    private Result run(String... args) {
        List<String> all = new ArrayList<>(Arrays.asList(args));
        all.add("--address");
        all.add(server.rpcTarget());
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
    void t30_ddlSchemaFileAndPartitionCommands() throws Exception {
        TableDescriptor parsed =
                SchemaParser.parseTableDdl(
                                "id BIGINT, dt DATE, amount INT, PRIMARY KEY (id, dt),"
                                        + " PARTITIONED BY (dt)")
                        .build();
        assertThat(parsed.partitionKeys()).containsExactly("dt");
        assertThat(parsed.bucketKeys()).containsExactly("id");

        assertThat(run("db", "create", "shop").code()).isZero();
        Result created =
                run(
                        "table",
                        "create",
                        "shop.events",
                        "--schema",
                        "id BIGINT, dt STRING, page STRING, PARTITIONED BY (dt)",
                        "--buckets",
                        "2",
                        "--property",
                        "table.partition.dynamic-create=false");
        assertThat(created.code()).as(created.toString()).isZero();
        Path schemaFile = dir.resolve("in/orders.json");
        Files.writeString(
                schemaFile,
                "{\"columns\":[{\"name\":\"id\",\"type\":\"BIGINT\"},"
                        + "{\"name\":\"dt\",\"type\":\"DATE\"},"
                        + "{\"name\":\"amount\",\"type\":\"INT\"}],"
                        + "\"primaryKey\":[\"id\",\"dt\"],\"partitionKeys\":[\"dt\"],"
                        + "\"buckets\":2}");
        Result fromFile =
                run("table", "create", "shop.orders", "--schema-file", schemaFile.toString());
        assertThat(fromFile.code()).as(fromFile.toString()).isZero();
        assertThat(run("table", "describe", "shop.orders").out())
                .contains("partitioned: by [dt]")
                .contains("buckets:     2 by [id] in each partition");

        assertUserError(
                run(
                        "table",
                        "create",
                        "shop.bad",
                        "--schema",
                        "id BIGINT, dt DATE, PRIMARY KEY (id)",
                        "--partitioned-by",
                        "dt"),
                "partition key 'dt' must be part of the primary key [id]");

        assertThat(run("partition", "add", "shop.events", "dt=2026-12-01").out())
                .contains("partition dt=2026-12-01 of shop.events (id ");
        assertUserError(run("partition", "add", "shop.events", "dt=2026-12-01"), "already exists");
        assertUserError(
                run("partition", "add", "shop.events", "day=2026-12-01"),
                "must name exactly the partition keys [dt]");

        Path csv = dir.resolve("in/events.csv");
        Files.writeString(csv, "1,2026-12-01,home\n2,2026-12-01,cart\n");
        Result wrote = run("write", "shop.events", "--file", csv.toString(), "--quiet");
        assertThat(wrote.code()).as(wrote.toString()).isZero();
        Files.writeString(csv, "3,2026-12-02,home\n");
        assertUserError(
                run("write", "shop.events", "--file", csv.toString(), "--quiet"),
                "partition dt=2026-12-02 of table shop.events does not exist");

        Result list = run("partition", "list", "shop.events");
        assertThat(list.out()).contains("dt=2026-12-01").contains("ACTIVE").contains("2");
        assertThat(run("table", "describe", "shop.events").out())
                .contains("replicas:    per partition: add --partition NAME");
        assertThat(run("table", "describe", "shop.events", "--partition", "dt=2026-12-01").out())
                .contains("replicas:    2 buckets, 0 under-replicated, 0 without a leader");
        assertUserError(
                run("table", "describe", "shop.events", "--partition", "dt=2026-12-09"),
                "dt=2026-12-09");
        Result scan = run("scan", "shop.events", "--partition", "dt=2026-12-01");
        assertThat(scan.out().lines()).hasSize(2).allMatch(l -> l.startsWith("dt=2026-12-01\t"));

        assertThat(run("partition", "drop", "shop.events", "dt=2026-12-01").out())
                .contains("dropped partition dt=2026-12-01 of shop.events");
        assertThat(run("partition", "list", "shop.events").out()).doesNotContain("2026-12-01");
        assertUserError(run("partition", "drop", "shop.events", "dt=2026-12-01"), "does not exist");
        assertThat(run("partition", "drop", "shop.events", "dt=2026-12-01", "--if-exists").code())
                .isZero();
    }

    @Test
    void t35_tieringStatusPerPartitionInTheCliAndTheHttpApi() throws Exception {
        assertThat(run("db", "create", "web", "--if-not-exists").code()).isZero();
        Result created =
                run(
                        "table",
                        "create",
                        "web.clicks",
                        "--schema",
                        "id BIGINT, dt STRING, PARTITIONED BY (dt)",
                        "--buckets",
                        "2",
                        "--property",
                        "table.datalake.enabled=true");
        assertThat(created.code()).as(created.toString()).isZero();
        Path csv = dir.resolve("in/clicks.csv");
        Files.writeString(csv, "1,2026-12-01\n2,2026-12-01\n3,2026-12-01\n4,2026-12-02\n");
        Result wrote = run("write", "web.clicks", "--file", csv.toString(), "--quiet");
        assertThat(wrote.code()).as(wrote.toString()).isZero();

        Result status = run("tiering", "status", "web.clicks", "--partitions");
        assertThat(status.code()).as(status.toString()).isZero();
        // TABLE PARTITION STATE LAG LAG-RECORDS RECORDS
        assertThat(partitionLine(status.out(), "dt=2026-12-01"))
                .startsWith("web.clicks", "dt=2026-12-01", "ACTIVE")
                .endsWith("3", "3");
        assertThat(partitionLine(status.out(), "dt=2026-12-02"))
                .startsWith("web.clicks", "dt=2026-12-02", "ACTIVE")
                .endsWith("1", "1");
        // the table's lag is their sum; without --partitions no partition lines
        Result plain = run("tiering", "status", "web.clicks");
        assertThat(plain.out()).doesNotContain("dt=2026-12-01");
        assertThat(plain.out().lines().filter(l -> l.startsWith("web.clicks")).findFirst())
                .hasValueSatisfying(l -> assertThat(l.split("\\s+")).contains("4"));

        InetSocketAddress http = server.httpAddress().orElseThrow();
        HttpResponse<String> api =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(
                                                URI.create(
                                                        "http://localhost:"
                                                                + http.getPort()
                                                                + "/api/tiering?table=web.clicks"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        assertThat(api.statusCode()).as(api.body()).isEqualTo(200);
        // a table's partitions are in its own view (the list of tables is a page of compact rows)
        JsonNode table = new ObjectMapper().readTree(api.body());
        assertThat(table.get("table").asText()).as(api.body()).isEqualTo("web.clicks");
        assertThat(table.get("lagRecords").asLong()).isEqualTo(4);
        JsonNode parts = table.get("partitions");
        assertThat(parts).hasSize(2);
        assertThat(parts.get(0).get("name").asText()).isEqualTo("dt=2026-12-01");
        assertThat(parts.get(0).get("lagRecords").asLong()).isEqualTo(3);
        assertThat(parts.get(0).get("lagMillis").asLong()).isNotNegative();
        assertThat(parts.get(1).get("name").asText()).isEqualTo("dt=2026-12-02");
        assertThat(parts.get(1).get("lagRecords").asLong()).isEqualTo(1);
        assertThat(parts.get(1).get("state").asText()).isEqualTo("ACTIVE");
    }

    private static List<String> partitionLine(String out, String partition) {
        return out.lines()
                .filter(l -> l.startsWith("web.clicks") && l.contains(partition))
                .findFirst()
                .map(l -> List.of(l.trim().split("\\s+")))
                .orElseThrow(() -> new AssertionError("no line for " + partition + " in\n" + out));
    }
}
