package dev.tributary.lake.api.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A real S3 API server for tests: s3proxy over a local directory, in its own JVM. Bucket {@code b}
 * is the directory {@code dataDir/b} and object {@code k} the file {@code dataDir/b/k}, so a test
 * can count what the bucket holds by walking that directory (and, to be independent of that
 * mapping, by listing the bucket through S3).
 *
 * <p>Requests are signed (AWS signature v2 or v4) with {@link #ACCESS_KEY} and {@link #SECRET_KEY}:
 * a client without the credentials is refused, as by a real store.
 */
public final class S3Server implements AutoCloseable {
    public static final String ACCESS_KEY = "tributary-test-key";
    public static final String SECRET_KEY = "tributary-test-secret-9c1f";
    public static final String REGION = "us-east-1";

    private final Path dataDir;
    private final int port;
    private final Process process;

    private S3Server(Path dataDir, int port, Process process) {
        this.dataDir = dataDir;
        this.port = port;
        this.process = process;
    }

    /** Starts s3proxy storing under {@code dataDir} with the given buckets created. */
    public static S3Server start(Path dataDir, String... buckets) {
        try {
            Path data = Files.createDirectories(dataDir.resolve("objects"));
            for (String b : buckets) {
                Files.createDirectories(data.resolve(b));
            }
            int port = ServerProcesses.freePort();
            Path conf = dataDir.resolve("s3proxy.properties");
            Files.writeString(
                    conf,
                    String.join(
                            "\n",
                            "s3proxy.endpoint=http://127.0.0.1:" + port,
                            "s3proxy.authorization=aws-v2-or-v4",
                            "s3proxy.identity=" + ACCESS_KEY,
                            "s3proxy.credential=" + SECRET_KEY,
                            "jclouds.provider=filesystem",
                            "jclouds.filesystem.basedir=" + data,
                            ""));
            Path jar = ServerProcesses.serversDir().resolve("s3proxy.jar");
            Process p =
                    ServerProcesses.start(
                            List.of(
                                    "-Xmx256m",
                                    "-jar",
                                    jar.toString(),
                                    "--properties",
                                    conf.toString()),
                            Map.of(),
                            dataDir.resolve("s3proxy.log"),
                            port);
            return new S3Server(data, port, p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code http://127.0.0.1:port}. */
    public String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    /** The local directory holding the bucket's objects. */
    public Path bucketDir(String bucket) {
        return dataDir.resolve(bucket);
    }

    /** Keys of every object in the bucket under {@code prefix}, read from the backing directory. */
    public List<String> keys(String bucket, String prefix) {
        Path root = bucketDir(bucket);
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile)
                    .map(f -> root.relativize(f).toString())
                    .filter(k -> k.startsWith(prefix))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        ServerProcesses.stop(process);
    }
}
