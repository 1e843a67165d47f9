package dev.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableAlteration;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.exception.AlreadyExistsException;
import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.UnauthenticatedException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.rpc.AuthHeaders;
import dev.tributary.rpc.convert.ProtoConverters;
import dev.tributary.rpc.error.GrpcErrors;
import dev.tributary.rpc.proto.AdminServiceGrpc;
import dev.tributary.rpc.proto.CreateTableRequest;
import dev.tributary.rpc.proto.TableDescriptorPb;
import dev.tributary.rpc.proto.WriteRequest;
import dev.tributary.rpc.proto.WriteServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad requests get the typed exception the server threw, and nothing is written. */
class BadInputITCase {
    private static final TablePath LOG = TablePath.of("db", "log");
    private static final TablePath PK = TablePath.of("db", "pk");
    private static final String TOKEN = "s3cret-token";

    @TempDir Path dir;
    private TributaryServer server;
    private Connection conn;
    private ManagedChannel raw;
    private TableInfo log;

    @BeforeEach
    void start() {
        server = TestServers.start(dir, Map.of("security.token", TOKEN));
        conn = Connection.builder().address(server.rpcTarget()).token(TOKEN).build();
        conn.admin().createDatabase("db", false);
        log =
                conn.admin()
                        .createTable(
                                LOG,
                                TableDescriptor.builder(
                                                Schema.newBuilder()
                                                        .column("id", DataTypes.BIGINT().notNull())
                                                        .column("name", DataTypes.STRING())
                                                        .build())
                                        .build(),
                                false);
        conn.admin()
                .createTable(
                        PK,
                        TableDescriptor.builder(
                                        Schema.newBuilder()
                                                .column("id", DataTypes.BIGINT())
                                                .column("v", DataTypes.INT())
                                                .primaryKey("id")
                                                .build())
                                .build(),
                        false);
        raw =
                NettyChannelBuilder.forTarget(server.rpcTarget())
                        .usePlaintext()
                        .intercept(
                                new io.grpc.ClientInterceptor() {
                                    @Override
                                    public <Q, R> io.grpc.ClientCall<Q, R> interceptCall(
                                            io.grpc.MethodDescriptor<Q, R> m,
                                            io.grpc.CallOptions o,
                                            io.grpc.Channel next) {
                                        return new io.grpc.ForwardingClientCall
                                                .SimpleForwardingClientCall<>(next.newCall(m, o)) {
                                            @Override
                                            public void start(
                                                    Listener<R> l, io.grpc.Metadata headers) {
                                                headers.put(
                                                        AuthHeaders.AUTHORIZATION,
                                                        AuthHeaders.bearer(TOKEN));
                                                super.start(l, headers);
                                            }
                                        };
                                    }
                                })
                        .build();
    }

    @AfterEach
    void stop() {
        raw.shutdownNow();
        conn.close();
        server.close();
    }

    @Test
    void unknownTablesAndDatabasesAreNotFound() {
        assertThatThrownBy(() -> conn.admin().describeTable(TablePath.of("db", "nope")))
                .isInstanceOf(NotFoundException.class)
                .hasMessageContaining("db.nope");
        assertThatThrownBy(() -> conn.appendWriter(TablePath.of("db", "nope")))
                .isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> conn.admin().listTables("nodb"))
                .isInstanceOf(NotFoundException.class);
        assertThatThrownBy(
                        () ->
                                conn.admin()
                                        .createTable(
                                                TablePath.of("nodb", "t"),
                                                conn.admin().describeTable(LOG).descriptor(),
                                                false))
                .isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> conn.admin().createDatabase("db", false))
                .isInstanceOf(AlreadyExistsException.class);
        // a write to a table id that does not exist
        WriteBatch batch =
                WriteBatch.builder(999, 0, 1, log.schema()).append(Row.of(1L, "x")).build();
        assertThatThrownBy(() -> write(999, 0, 1, batch.toBytes(), false))
                .isInstanceOf(NotFoundException.class)
                .hasMessageContaining("999");
    }

    @Test
    void invalidPropertiesAreRefusedWithTheKeyNamed() {
        Schema schema = Schema.newBuilder().column("id", DataTypes.BIGINT()).build();
        assertThatThrownBy(
                        () ->
                                conn.admin()
                                        .createTable(
                                                TablePath.of("db", "t1"),
                                                TableDescriptor.builder(schema)
                                                        .property("table.datalake.freshness", "abc")
                                                        .build(),
                                                false))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("table.datalake.freshness")
                .hasMessageContaining("abc");
        assertThatThrownBy(
                        () ->
                                conn.admin()
                                        .alterTable(
                                                LOG,
                                                TableAlteration.create()
                                                        .setProperty("table.log.ttl", "forever")))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("table.log.ttl");
        // bucket.num=0 sent on the wire (the client-side builder would refuse it already)
        TableDescriptorPb zeroBuckets =
                ProtoConverters.toPb(TableDescriptor.builder(schema).build()).toBuilder()
                        .setBucketCount(0)
                        .build();
        assertThatThrownBy(
                        () ->
                                call(
                                        () ->
                                                AdminServiceGrpc.newBlockingStub(raw)
                                                        .createTable(
                                                                CreateTableRequest.newBuilder()
                                                                        .setPath(
                                                                                ProtoConverters
                                                                                        .toPb(
                                                                                                TablePath
                                                                                                        .of(
                                                                                                                "db",
                                                                                                                "t2")))
                                                                        .setTableDescriptor(
                                                                                zeroBuckets)
                                                                        .build())))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("bucket.num");
        assertThat(conn.admin().listTables("db")).containsExactly("log", "pk");
        // a non-nullable added column
        assertThatThrownBy(
                        () ->
                                conn.admin()
                                        .alterTable(
                                                LOG,
                                                TableAlteration.create()
                                                        .addColumn("c", DataTypes.INT().notNull())))
                .isInstanceOf(InvalidInputException.class);
    }

    @Test
    void wrongSchemaAndMalformedBatchesWriteNothing() {
        // client side: wrong arity and NULL in a NOT NULL column fail at the call, nothing buffered
        try (AppendWriter w = conn.appendWriter(LOG)) {
            assertThatThrownBy(() -> w.append(Row.of(1L)))
                    .isInstanceOf(InvalidInputException.class);
            assertThatThrownBy(() -> w.append(Row.of(null, "x")))
                    .isInstanceOf(InvalidInputException.class);
            assertThatThrownBy(() -> w.append(Row.of("not a long", "x")))
                    .isInstanceOf(InvalidInputException.class);
        }
        assertThatThrownBy(() -> conn.upsertWriter(LOG)).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> conn.appendWriter(PK)).isInstanceOf(InvalidInputException.class);
        try (UpsertWriter w = conn.upsertWriter(PK)) {
            assertThatThrownBy(() -> w.upsert(Row.of(null, 1)))
                    .isInstanceOf(InvalidInputException.class);
        }

        // server side: a batch encoded under another schema than it claims
        Schema other =
                Schema.newBuilder()
                        .column("a", DataTypes.STRING())
                        .column("b", DataTypes.STRING())
                        .column("c", DataTypes.STRING())
                        .build();
        byte[] wrongSchema =
                WriteBatch.builder(log.tableId(), 0, log.schemaId(), other)
                        .append(Row.of("a", "b", "c"))
                        .build()
                        .toBytes();
        assertThatThrownBy(() -> write(log.tableId(), 0, log.schemaId(), wrongSchema, false))
                .isInstanceOf(InvalidInputException.class);
        // garbage bytes, a truncated batch, a header naming another bucket, an unknown schema id
        byte[] good =
                WriteBatch.builder(log.tableId(), 0, log.schemaId(), log.schema())
                        .append(Row.of(1L, "x"))
                        .append(Row.of(2L, "y"))
                        .build()
                        .toBytes();
        byte[] truncated = java.util.Arrays.copyOf(good, good.length - 3);
        assertThatThrownBy(
                        () -> write(log.tableId(), 0, log.schemaId(), new byte[] {1, 2, 3}, false))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> write(log.tableId(), 0, log.schemaId(), truncated, false))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> write(log.tableId(), 1, log.schemaId(), good, false))
                .isInstanceOf(InvalidInputException.class);
        byte[] unknownSchema =
                WriteBatch.builder(log.tableId(), 0, 42, log.schema())
                        .append(Row.of(1L, "x"))
                        .build()
                        .toBytes();
        assertThatThrownBy(() -> write(log.tableId(), 0, 42, unknownSchema, false))
                .isInstanceOf(InvalidInputException.class);
        // an append to a PK table through the raw API
        assertThatThrownBy(() -> write(log.tableId(), 0, log.schemaId(), good, true))
                .isInstanceOf(InvalidInputException.class);

        // nothing was written by any of them
        assertThat(conn.logScanner(LOG).endOffsets()).containsEntry(0, 0L);
        // and the good batch still goes through
        write(log.tableId(), 0, log.schemaId(), good, false);
        assertThat(conn.logScanner(LOG).endOffsets()).containsEntry(0, 2L);
    }

    @Test
    void missingOrWrongTokenIsRefused() throws Exception {
        try (Connection anonymous = Connection.open(server.rpcTarget())) {
            assertThatThrownBy(() -> anonymous.admin().listDatabases())
                    .isInstanceOf(UnauthenticatedException.class)
                    .hasMessageContaining("token");
            assertThatThrownBy(() -> anonymous.appendWriter(LOG))
                    .isInstanceOf(UnauthenticatedException.class);
        }
        try (Connection wrong =
                Connection.builder().address(server.rpcTarget()).token("guess").build()) {
            assertThatThrownBy(() -> wrong.admin().listDatabases())
                    .isInstanceOf(UnauthenticatedException.class)
                    .hasMessageContaining("wrong");
        }
        assertThat(conn.admin().listDatabases()).containsExactly("db");

        HttpClient http = HttpClient.newHttpClient();
        String base = "http://127.0.0.1:" + server.httpAddress().orElseThrow().getPort();
        assertThat(get(http, base + "/health", null).statusCode()).isEqualTo(200);
        assertThat(get(http, base + "/metrics", null).statusCode()).isEqualTo(401);
        assertThat(get(http, base + "/api/tables", "nope").statusCode()).isEqualTo(401);
        HttpResponse<String> tables = get(http, base + "/api/tables", TOKEN);
        assertThat(tables.statusCode()).isEqualTo(200);
        assertThat(tables.body()).contains("\"db.log\"").contains("\"db.pk\"");
        HttpResponse<String> metrics = get(http, base + "/metrics", TOKEN);
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body()).contains("tributary_bucket_end_offset");
        HttpResponse<String> tiering = get(http, base + "/api/tiering", TOKEN);
        assertThat(tiering.statusCode()).isEqualTo(200);
        assertThat(tiering.body()).contains("\"tables\"").contains("\"pendingCount\"");
    }

    private static HttpResponse<String> get(HttpClient http, String url, String token)
            throws Exception {
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(url)).GET();
        if (token != null) {
            req.header("Authorization", "Bearer " + token);
        }
        return http.send(req.build(), HttpResponse.BodyHandlers.ofString());
    }

    private void write(long tableId, int bucket, int schemaId, byte[] batch, boolean upsert) {
        WriteRequest req =
                WriteRequest.newBuilder()
                        .setTableId(tableId)
                        .setBucket(bucket)
                        .setSchemaId(schemaId)
                        .setBatch(ByteString.copyFrom(batch))
                        .build();
        WriteServiceGrpc.WriteServiceBlockingStub stub = WriteServiceGrpc.newBlockingStub(raw);
        call(() -> upsert ? stub.put(req) : stub.append(req));
    }

    private static <T> T call(java.util.function.Supplier<T> s) {
        try {
            return s.get();
        } catch (RuntimeException e) {
            throw GrpcErrors.fromThrowable(e);
        }
    }
}
