package dev.tributary.tiering.job;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.tiering.service.GatewayTieringService;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Cluster entry point: {@code flink run -c dev.tributary.tiering.job.TieringJobMain
 * tributary-tiering.jar --coordinator host:port [--key value ...]}, also behind {@code tributary
 * tiering-job}. Every {@code --key value} pair becomes a setting: tiering options ({@code
 * tiering.*}), {@code --token} (the server's security token, if set), lake settings ({@code
 * datalake.format}, {@code datalake.<format>.*}) and client settings ({@code client.*}). Several
 * jobs may serve one coordinator (T26); give each its own {@code --tiering.job.id} or let it pick a
 * random one.
 */
public final class TieringJobMain {
    static final String COORDINATOR = "coordinator";
    static final String TOKEN = "token";

    private TieringJobMain() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> settings = parse(args);
        String coordinator = settings.remove(COORDINATOR);
        if (coordinator == null || coordinator.isBlank()) {
            throw new InvalidInputException(
                    "missing --coordinator host:port: the address of the Tributary server whose"
                            + " tables this job tiers");
        }
        Configuration config = Configuration.fromMap(settings);
        String token = settings.remove(TOKEN);
        Map<String, String> client = new LinkedHashMap<>();
        settings.forEach(
                (k, v) -> {
                    if (k.startsWith("client.")) {
                        client.put(k, v);
                    }
                });
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        String jobId =
                TieringJob.build(
                        env, GatewayTieringService.factory(coordinator, token, client), config);
        env.execute("Tributary tiering " + jobId + " -> " + coordinator);
    }

    /**
     * {@code --key value} pairs, in order. A key without a value is an error, and so is a {@code
     * tiering.*} key the job does not have: settings the coordinator owns (heartbeats, commit
     * timeout and order) come from the server when the job registers, and a job that silently
     * ignored them would leave the user believing they took effect.
     */
    static Map<String, String> parse(String[] args) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--") || a.length() == 2) {
                throw new InvalidInputException(
                        "unexpected argument '"
                                + a
                                + "': use --key value pairs, e.g. --coordinator"
                                + " localhost:9123 --datalake.paimon.warehouse /data/lake");
            }
            String key = a.substring(2);
            int eq = key.indexOf('=');
            if (eq > 0) {
                out.put(key.substring(0, eq), key.substring(eq + 1));
                continue;
            }
            if (i + 1 >= args.length) {
                throw new InvalidInputException("--" + key + " needs a value");
            }
            out.put(key, args[++i]);
        }
        checkTieringKeys(out.keySet());
        return out;
    }

    private static void checkTieringKeys(Set<String> keys) {
        Set<String> known = new TreeSet<>();
        TieringOptions.all().forEach(o -> known.add(o.key()));
        for (String key : keys) {
            if (key.startsWith("tiering.") && !known.contains(key)) {
                throw new InvalidInputException(
                        "--"
                                + key
                                + " is not a setting of the tiering job; it takes "
                                + known
                                + ". Heartbeat, commit timeout and commit settings belong to the"
                                + " server's coordinator, which hands them to the job when it"
                                + " registers: set them in the server's configuration");
            }
        }
    }
}
