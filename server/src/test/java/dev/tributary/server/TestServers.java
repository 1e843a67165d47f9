package dev.tributary.server;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.time.Clock;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Starts real servers on loopback with free ports, for ITCases. */
public final class TestServers {
    private TestServers() {}

    /** A server on {@code dataDir} with gRPC and HTTP on free ports, plus extra options. */
    public static TributaryServer start(Path dataDir, Map<String, String> extra) {
        Configuration conf = new Configuration();
        conf.setString("data.dir", dataDir.toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "0");
        extra.forEach(conf::setString);
        return TributaryServer.start(conf, Clock.system(), List.of());
    }

    public static TributaryServer start(Path dataDir) {
        return start(dataDir, Map.of());
    }
}
