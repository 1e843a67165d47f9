package dev.tributary.tiering.process;

import dev.tributary.common.config.Configuration;
import dev.tributary.tiering.job.TieringJob;
import dev.tributary.tiering.service.GatewayTieringService;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * {@code TieringJobMain} for a child JVM whose commits wait at a gate ({@link GatedCommitService}):
 * {@code --gate <file> --coordinator host:port [--key value ...]}. The same job graph ({@link
 * TieringJob}) on the same local MiniCluster; only the service factory is wrapped.
 */
public final class GatedCommitJobMain {
    private GatedCommitJobMain() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> settings = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            settings.put(args[i].substring(2), args[i + 1]);
        }
        String gate = settings.remove("gate");
        String coordinator = settings.remove("coordinator");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        String jobId =
                TieringJob.build(
                        env,
                        new GatedCommitService.Factory(
                                GatewayTieringService.factory(coordinator, null, Map.of()), gate),
                        Configuration.fromMap(settings));
        env.execute("Tributary tiering " + jobId + " (commits gated) -> " + coordinator);
    }
}
