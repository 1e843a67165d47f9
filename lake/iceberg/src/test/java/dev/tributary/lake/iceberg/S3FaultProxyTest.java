package dev.tributary.lake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.id.TablePath;
import dev.tributary.lake.api.io.ObjectStoreCounts;
import dev.tributary.lake.api.io.ObjectStoreRequest;
import dev.tributary.lake.api.io.ObjectStoreRequests;
import dev.tributary.lake.api.testing.S3FaultProxy;
import dev.tributary.lake.api.testing.S3FaultProxy.Fault;
import dev.tributary.lake.api.testing.S3Server;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.StreamSupport;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault proxy between Iceberg's S3FileIO and a real S3 server (s3proxy), and the request
 * counter (T47) seeing every attempt the SDK makes through it.
 */
class S3FaultProxyTest {
    private static final String BUCKET = "lake";
    @TempDir static Path servers;
    private static S3Server s3;

    private S3FaultProxy proxy;
    private S3FileIO io;
    private TablePath table;
    private String location;
    private String prefix;

    @BeforeAll
    static void startS3() {
        s3 = S3Server.start(servers.resolve("s3"), BUCKET);
    }

    @AfterAll
    static void stopS3() {
        if (s3 != null) {
            s3.close();
        }
    }

    @BeforeEach
    void open(org.junit.jupiter.api.TestInfo info) {
        proxy = S3FaultProxy.start(s3);
        Map<String, String> props = new HashMap<>();
        props.put("s3.endpoint", proxy.endpoint());
        props.put("s3.path-style-access", "true");
        props.put("s3.access-key-id", S3Server.ACCESS_KEY);
        props.put("s3.secret-access-key", S3Server.SECRET_KEY);
        props.put("client.region", S3Server.REGION);
        props.put("s3.retry.num-retries", "5");
        props.put("s3.retry.min-wait-ms", "20");
        props.put("s3.retry.max-wait-ms", "100");
        props.put("s3.multipart.part-size-bytes", Integer.toString(5 << 20));
        io = new S3FileIO();
        io.initialize(props);
        String name = info.getTestMethod().orElseThrow().getName().toLowerCase();
        table = TablePath.of("proxy", name);
        prefix = "wh/proxy/" + name + "/";
        location = "s3://" + BUCKET + "/wh/proxy/" + name;
        ObjectStoreRequests.global().registerTable(table, location);
    }

    @AfterEach
    void close() {
        io.close();
        proxy.close();
    }

    private ObjectStoreCounts counts() {
        return ObjectStoreRequests.global().snapshot(table);
    }

    private void write(String file, byte[] data) throws IOException {
        try (OutputStream out = io.newOutputFile(location + "/" + file).create()) {
            out.write(data);
        }
    }

    private byte[] read(String file) throws IOException {
        try (InputStream in = io.newInputFile(location + "/" + file).newStream()) {
            return in.readAllBytes();
        }
    }

    @Test
    void t47_forwardedRequestsAreCountedByKindAndBytesByTheirTable() throws Exception {
        byte[] data = new byte[10_000];
        new Random(1).nextBytes(data);
        write("data/a.bin", data);
        assertThat(read("data/a.bin")).isEqualTo(data);
        assertThat(io.newInputFile(location + "/data/a.bin").getLength()).isEqualTo(10_000);
        long listed =
                StreamSupport.stream(io.listPrefix(location + "/data").spliterator(), false)
                        .count();
        assertThat(listed).isEqualTo(1);
        io.deleteFile(location + "/data/a.bin");

        ObjectStoreCounts c = counts();
        assertThat(c.requests(ObjectStoreRequest.PUT)).isEqualTo(1);
        assertThat(c.requests(ObjectStoreRequest.GET)).isGreaterThanOrEqualTo(1);
        assertThat(c.requests(ObjectStoreRequest.HEAD)).isGreaterThanOrEqualTo(1);
        assertThat(c.requests(ObjectStoreRequest.LIST)).isEqualTo(1);
        assertThat(c.requests(ObjectStoreRequest.DELETE)).isEqualTo(1);
        assertThat(c.bytesUp()).isGreaterThanOrEqualTo(10_000);
        assertThat(c.bytesDown()).isGreaterThanOrEqualTo(10_000);
        // the proxy saw exactly what the counter counted
        assertThat(proxy.requests()).isEqualTo(c.totalRequests());
        assertThat(proxy.requestsByMethod().get("PUT")).isEqualTo(1);
        assertThat(proxy.requestsByMethod().get("DELETE")).isEqualTo(1);
        assertThat(s3.keys(BUCKET, prefix)).isEmpty();
    }

    @Test
    void t47_throttledAndResetRequestsAreRetriedAndEveryAttemptCounts() throws Exception {
        AtomicInteger puts = new AtomicInteger();
        AtomicInteger gets = new AtomicInteger();
        proxy.rule(
                r -> {
                    if (r.method().equals("PUT") && puts.incrementAndGet() <= 2) {
                        return Fault.SLOW_DOWN;
                    }
                    if (r.method().equals("GET") && gets.incrementAndGet() == 1) {
                        return Fault.RESET;
                    }
                    return Fault.FORWARD;
                });
        byte[] data = "hello".getBytes();
        write("data/b.bin", data);
        assertThat(read("data/b.bin")).isEqualTo(data);

        assertThat(proxy.count(S3FaultProxy.Action.SLOW_DOWN)).isEqualTo(2);
        assertThat(proxy.count(S3FaultProxy.Action.RESET)).isEqualTo(1);
        ObjectStoreCounts c = counts();
        assertThat(c.requests(ObjectStoreRequest.PUT)).as("1 PUT + 2 retries").isEqualTo(3);
        assertThat(c.requests(ObjectStoreRequest.GET)).as("1 GET + 1 retry").isEqualTo(2);
        assertThat(s3.keys(BUCKET, prefix)).hasSize(1);
    }

    @Test
    void t47_aFailedMultipartUploadIsAbortedAndLeavesNoObject() throws Exception {
        proxy.rule(r -> r.isCompleteMultipart() ? Fault.RESET : Fault.FORWARD);
        byte[] data = new byte[11 << 20];
        new Random(2).nextBytes(data);
        assertThatThrownBy(() -> write("data/big.bin", data)).isInstanceOf(Exception.class);

        ObjectStoreCounts c = counts();
        assertThat(c.requests(ObjectStoreRequest.MULTIPART_CREATE)).isEqualTo(1);
        assertThat(c.requests(ObjectStoreRequest.MULTIPART_PART)).isEqualTo(3);
        assertThat(c.requests(ObjectStoreRequest.MULTIPART_COMPLETE))
                .as("every attempt of the complete")
                .isEqualTo(6);
        assertThat(c.requests(ObjectStoreRequest.MULTIPART_ABORT)).isEqualTo(1);
        assertThat(c.requests(ObjectStoreRequest.PUT)).isZero();
        assertThat(c.bytesUp()).isGreaterThanOrEqualTo(11 << 20);
        assertThat(s3.keys(BUCKET, prefix)).isEmpty();

        // and the same upload through a healthy proxy completes
        proxy.rule(r -> Fault.FORWARD);
        write("data/big.bin", data);
        assertThat(read("data/big.bin")).isEqualTo(data);
    }

    @Test
    void t47_randomFaultsAreSeededAndLatencyIsAdded() throws Exception {
        long seed = new Random().nextLong();
        proxy.rule(S3FaultProxy.random(seed, 0.1, 0.05, 0.2, 30));
        for (int i = 0; i < 20; i++) {
            byte[] data = ("file " + i).getBytes();
            write("data/r" + i + ".bin", data);
            assertThat(read("data/r" + i + ".bin")).as("seed %d", seed).isEqualTo(data);
        }
        assertThat(proxy.faults()).as("seed %d", seed).isPositive();
        assertThat(proxy.requests()).as("seed %d", seed).isEqualTo(counts().totalRequests());
    }
}
