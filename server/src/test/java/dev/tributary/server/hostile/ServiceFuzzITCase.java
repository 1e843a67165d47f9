package dev.tributary.server.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.scan.RecordIterator;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.rpc.proto.AdminServiceGrpc;
import dev.tributary.rpc.proto.ReadServiceGrpc;
import dev.tributary.rpc.proto.TieringServiceGrpc;
import dev.tributary.rpc.proto.WriteServiceGrpc;
import dev.tributary.server.TestServers;
import dev.tributary.server.TributaryServer;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T55: random, truncated, oversized and ill-typed messages to every gRPC method, and bad paths and
 * query strings to the HTTP API, against a real server. Every answer is a typed error (never
 * INTERNAL or UNKNOWN, never a stack trace; HTTP 4xx, never 5xx), the server keeps serving, and the
 * rows written before the fuzzing are all still there.
 */
class ServiceFuzzITCase {
    private static final int GRPC_MESSAGES = 1500;
    private static final int HTTP_REQUESTS = 400;
    private static final Duration BUDGET = Duration.ofSeconds(90);
    private static final MethodDescriptor.Marshaller<byte[]> BYTES =
            new MethodDescriptor.Marshaller<>() {
                @Override
                public InputStream stream(byte[] value) {
                    return new ByteArrayInputStream(value);
                }

                @Override
                public byte[] parse(InputStream stream) {
                    try {
                        return stream.readAllBytes();
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                }
            };
    private static final TablePath LOG = TablePath.of("db", "log");
    private static final TablePath PK = TablePath.of("db", "pk");

    @TempDir Path dir;

    // a fixed default keeps the test command reproducible; -Dfuzz.seed=<n> explores other inputs
    private static final long DEFAULT_SEED = 1081941621307L;

    private final long seed = Long.getLong("fuzz.seed", DEFAULT_SEED);
    private final Random random = new Random(seed);
    private final List<Long> tableIds = new ArrayList<>(List.of(0L, 1L, -1L, Long.MAX_VALUE));

    @Test
    void t55_fuzzedGrpcAndHttpRequestsGetTypedErrorsAndLoseNothing() throws Exception {
        try (TributaryServer server = TestServers.start(dir);
                Connection conn = Connection.open(server.rpcTarget())) {
            conn.admin().createDatabase("db", false);
            TableInfo log =
                    conn.admin()
                            .createTable(
                                    LOG,
                                    TableDescriptor.builder(
                                                    Schema.newBuilder()
                                                            .column(
                                                                    "id",
                                                                    DataTypes.BIGINT().notNull())
                                                            .column("name", DataTypes.STRING())
                                                            .build())
                                            .bucketCount(1)
                                            .build(),
                                    false);
            TableInfo pk =
                    conn.admin()
                            .createTable(
                                    PK,
                                    TableDescriptor.builder(
                                                    Schema.newBuilder()
                                                            .column("id", DataTypes.BIGINT())
                                                            .column("v", DataTypes.INT())
                                                            .primaryKey("id")
                                                            .build())
                                            .bucketCount(1)
                                            .build(),
                                    false);
            tableIds.add(log.tableId());
            tableIds.add(pk.tableId());
            try (AppendWriter w = conn.appendWriter(LOG);
                    UpsertWriter u = conn.upsertWriter(PK)) {
                for (long i = 0; i < 500; i++) {
                    w.append(Row.of(i, "row-" + i));
                    u.upsert(Row.of(i, (int) i));
                }
                w.flush();
                u.flush();
            }

            List<String> failures = new ArrayList<>();
            long deadline = System.nanoTime() + BUDGET.toNanos();
            ManagedChannel channel =
                    NettyChannelBuilder.forTarget(server.rpcTarget())
                            .usePlaintext()
                            .maxInboundMessageSize(128 << 20)
                            .build();
            try {
                List<MethodDescriptor<?, ?>> methods = new ArrayList<>();
                methods.addAll(AdminServiceGrpc.getServiceDescriptor().getMethods());
                methods.addAll(WriteServiceGrpc.getServiceDescriptor().getMethods());
                methods.addAll(ReadServiceGrpc.getServiceDescriptor().getMethods());
                methods.addAll(TieringServiceGrpc.getServiceDescriptor().getMethods());
                methods.sort((a, b) -> a.getFullMethodName().compareTo(b.getFullMethodName()));
                int sent = 0;
                for (; sent < GRPC_MESSAGES && System.nanoTime() < deadline; sent++) {
                    MethodDescriptor<?, ?> m = methods.get(random.nextInt(methods.size()));
                    byte[] request = request(m, sent);
                    String problem = call(channel, m, request);
                    if (problem != null) {
                        failures.add(m.getFullMethodName() + " #" + sent + ": " + problem);
                    }
                }
                // one message over the server's inbound limit
                MethodDescriptor<?, ?> write = WriteServiceGrpc.getAppendMethod();
                String problem = call(channel, write, new byte[(64 << 20) + 1024]);
                if (problem != null) {
                    failures.add("oversized Append: " + problem);
                }
                assertThat(sent).as("gRPC messages sent (seed %d)", seed).isGreaterThan(200);
            } finally {
                channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }

            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            String base = "http://127.0.0.1:" + server.httpAddress().orElseThrow().getPort();
            for (int i = 0; i < HTTP_REQUESTS && System.nanoTime() < deadline; i++) {
                String target = base + httpTarget();
                HttpRequest.Builder req;
                try {
                    req =
                            HttpRequest.newBuilder(URI.create(target))
                                    .timeout(Duration.ofSeconds(10));
                } catch (IllegalArgumentException notAUri) {
                    continue;
                }
                String method = pick("GET", "GET", "GET", "POST", "PUT", "DELETE", "HEAD");
                byte[] body = randomBytes(random.nextInt(2048));
                req.method(
                        method,
                        method.equals("GET") || method.equals("HEAD")
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(body));
                try {
                    HttpResponse<String> r =
                            http.send(req.build(), HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() >= 500 || r.body().contains("\tat ")) {
                        failures.add(
                                method + " " + target + " -> " + r.statusCode() + ": " + r.body());
                    }
                } catch (java.net.http.HttpTimeoutException e) {
                    // the plan endpoints simulate the whole workload on every call; with the
                    // fuzzer's many tables that can take longer than the timeout (not a crash)
                    if (!target.contains("/api/tiering/plan")
                            && !target.contains("/api/tiering/workload")) {
                        failures.add(method + " " + target + " -> " + e);
                    }
                } catch (IOException e) {
                    failures.add(method + " " + target + " -> " + e);
                }
            }

            assertThat(failures)
                    .as(
                            "requests answered with an untyped error (seed %d, -Dfuzz.seed=%d)",
                            seed, seed)
                    .isEmpty();

            // the server keeps serving, and every row accepted before is still there
            try (AppendWriter w = conn.appendWriter(LOG)) {
                w.append(Row.of(500L, "after"));
                w.flush();
            }
            List<Object> ids = new ArrayList<>();
            try (RecordIterator it =
                    conn.tieringGateway()
                            .readLog(new TableBucket(log.tableId(), 0), 0, 500, log.schema())) {
                while (it.hasNext()) {
                    Row r = it.next().row();
                    assertThat(r.getString(1)).isEqualTo("row-" + r.getLong(0));
                    ids.add(r.getLong(0));
                }
            }
            assertThat(ids).as("seed %d", seed).hasSize(500);
            assertThat(ids)
                    .isEqualTo(
                            new ArrayList<>(
                                    java.util.stream.LongStream.range(0, 500).boxed().toList()));
            long pkRows = 0;
            try (RecordIterator it =
                    conn.tieringGateway()
                            .readLog(new TableBucket(pk.tableId(), 0), 0, 500, pk.schema())) {
                while (it.hasNext()) {
                    Row r = it.next().row();
                    assertThat(r.getInt(1)).isEqualTo((int) r.getLong(0));
                    pkRows++;
                }
            }
            assertThat(pkRows).as("seed %d", seed).isEqualTo(500);
        }
    }

    /** Null when the answer was OK or a typed error, else what was wrong with it. */
    private String call(ManagedChannel channel, MethodDescriptor<?, ?> m, byte[] request) {
        MethodDescriptor<byte[], byte[]> raw =
                MethodDescriptor.<byte[], byte[]>newBuilder()
                        .setType(m.getType())
                        .setFullMethodName(m.getFullMethodName())
                        .setRequestMarshaller(BYTES)
                        .setResponseMarshaller(BYTES)
                        .build();
        CallOptions options = CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS);
        try {
            if (m.getType() == MethodDescriptor.MethodType.UNARY) {
                ClientCalls.blockingUnaryCall(channel, raw, options, request);
            } else {
                Iterator<byte[]> it =
                        ClientCalls.blockingServerStreamingCall(channel, raw, options, request);
                for (int i = 0; i < 50 && it.hasNext(); i++) {
                    it.next();
                }
            }
            return null;
        } catch (StatusRuntimeException e) {
            Status s = e.getStatus();
            String d = String.valueOf(s.getDescription());
            if (!parses(m, request)
                    && (s.getCode() == Status.Code.INTERNAL || s.getCode() == Status.Code.UNKNOWN)
                    && !d.contains("\tat ")) {
                // not a protobuf message of the method: gRPC's own parser answers (INTERNAL
                // "Invalid protobuf byte sequence", or UNKNOWN when it fails in the half-close);
                // no Tributary code ran
                return null;
            }
            if (s.getCode() == Status.Code.INTERNAL
                    || s.getCode() == Status.Code.UNKNOWN
                    || d.contains("\tat ")
                    || d.contains("Exception:")) {
                return s.getCode() + " " + d;
            }
            return null;
        }
    }

    private static boolean parses(MethodDescriptor<?, ?> m, byte[] request) {
        Message prototype =
                (Message)
                        ((MethodDescriptor.PrototypeMarshaller<?>) m.getRequestMarshaller())
                                .getMessagePrototype();
        try {
            prototype.getParserForType().parseFrom(request);
            return true;
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            return false;
        }
    }

    private byte[] request(MethodDescriptor<?, ?> m, int n) {
        Message prototype =
                (Message)
                        ((MethodDescriptor.PrototypeMarshaller<?>) m.getRequestMarshaller())
                                .getMessagePrototype();
        boolean destructive =
                m.getBareMethodName().startsWith("Drop")
                        || m.getBareMethodName().startsWith("Alter");
        byte[] typed =
                randomMessage(prototype.getDescriptorForType(), 0, destructive).toByteArray();
        return switch (n % 5) {
            case 0, 1 -> typed;
            case 2 -> Arrays.copyOf(typed, typed.length == 0 ? 0 : random.nextInt(typed.length));
            case 3 -> flip(typed);
            default -> randomBytes(random.nextInt(random.nextBoolean() ? 64 : 100_000));
        };
    }

    private DynamicMessage randomMessage(Descriptor d, int depth, boolean destructive) {
        DynamicMessage.Builder b = DynamicMessage.newBuilder(d);
        for (FieldDescriptor f : d.getFields()) {
            if (random.nextInt(5) == 0) {
                continue;
            }
            if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE && depth >= 3) {
                continue;
            }
            if (f.isMapField() || f.isRepeated()) {
                int count = random.nextInt(random.nextInt(10) == 0 ? 200 : 4);
                for (int i = 0; i < count; i++) {
                    b.addRepeatedField(f, value(f, depth, destructive));
                }
            } else {
                b.setField(f, value(f, depth, destructive));
            }
        }
        return b.build();
    }

    private Object value(FieldDescriptor f, int depth, boolean destructive) {
        return switch (f.getJavaType()) {
            case INT -> pickInt();
            case LONG ->
                    random.nextInt(3) == 0
                            ? tableIds.get(random.nextInt(tableIds.size()))
                            : (long) pickInt() * (random.nextBoolean() ? 1 : 1L << 33);
            case BOOLEAN -> random.nextBoolean();
            case FLOAT -> (float) random.nextGaussian();
            case DOUBLE -> pick(Double.NaN, Double.POSITIVE_INFINITY, -1.0, 1e300);
            case STRING -> name(destructive);
            case BYTE_STRING ->
                    ByteString.copyFrom(
                            randomBytes(random.nextInt(random.nextInt(20) == 0 ? 1 << 20 : 300)));
            case ENUM -> {
                List<EnumValueDescriptor> values = f.getEnumType().getValues();
                yield values.get(random.nextInt(values.size()));
            }
            case MESSAGE -> randomMessage(f.getMessageType(), depth + 1, destructive);
        };
    }

    private int pickInt() {
        return switch (random.nextInt(6)) {
            case 0 -> 0;
            case 1 -> -1;
            case 2 -> Integer.MAX_VALUE;
            case 3 -> Integer.MIN_VALUE;
            case 4 -> random.nextInt(8);
            default -> random.nextInt();
        };
    }

    private String name(boolean destructive) {
        return switch (random.nextInt(destructive ? 10 : 12)) {
            case 0 -> "";
            case 1 -> " ";
            case 2 -> "a.b.c";
            case 3 -> "../../etc/passwd";
            case 4 -> "x".repeat(random.nextInt(100_000));
            case 5 -> "\u0000\uFFFF\uD800";
            case 6 -> "表-" + random.nextInt(100);
            case 7 -> "nope" + random.nextInt(3);
            case 8 -> "table.datalake.freshness";
            case 9 -> Integer.toString(random.nextInt());
            case 10 -> "db";
            default -> random.nextBoolean() ? "log" : "pk";
        };
    }

    private String httpTarget() {
        String path =
                pick(
                        "/health",
                        "/metrics",
                        "/api/tables",
                        "/api/tiering",
                        "/api/tiering/history",
                        "/api/tiering/plan",
                        "/api/tiering/workload",
                        "/api/console",
                        "/",
                        "/tables/db.log",
                        "/tables/%zz",
                        "/api/../../etc/passwd",
                        "/api/tiering/history/x",
                        "/" + "a".repeat(random.nextInt(20_000)));
        if (random.nextInt(4) == 0) {
            return path;
        }
        StringBuilder q = new StringBuilder("?");
        int params = 1 + random.nextInt(3);
        for (int i = 0; i < params; i++) {
            if (i > 0) {
                q.append('&');
            }
            q.append(pick("table", "since", "horizon", "recommend", "x", "%zz", "", "table"));
            q.append('=');
            q.append(
                    pick(
                            "db.log",
                            "db.nope",
                            "-1",
                            "abc",
                            "99999999999999999999999",
                            "1h",
                            "-5s",
                            "1000000d",
                            "%",
                            "%e4%b8",
                            "false",
                            "x".repeat(random.nextInt(5_000))));
        }
        return path + q;
    }

    private byte[] flip(byte[] bytes) {
        byte[] out = bytes.clone();
        for (int i = 0; i < 1 + random.nextInt(4) && out.length > 0; i++) {
            out[random.nextInt(out.length)] = (byte) random.nextInt(256);
        }
        return out;
    }

    private byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    @SafeVarargs
    private <T> T pick(T... values) {
        return values[random.nextInt(values.length)];
    }
}
