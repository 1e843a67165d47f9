package dev.tributary.cli.embedded;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.ConfigOptions;
import dev.tributary.common.config.Configuration;
import dev.tributary.server.ServerContext;
import dev.tributary.server.ServerExtension;
import dev.tributary.tiering.job.EmbeddedTiering;
import dev.tributary.tiering.job.TieringOptions;
import dev.tributary.tiering.service.GatewayTieringService;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the tiering job on an embedded Flink MiniCluster inside the server, found by the server
 * through {@code META-INF/services/dev.tributary.server.ServerExtension}. The job connects back to
 * the server through the client gateway, exactly as a job on a Flink cluster does; the lake tables
 * themselves are the server's business. Lives in the cli module because it needs both the server
 * and the tiering job, and neither of those may depend on the other.
 */
public final class EmbeddedTieringExtension implements ServerExtension {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedTieringExtension.class);

    public static final ConfigOption<Boolean> EMBEDDED_ENABLED =
            ConfigOptions.key("tiering.embedded.enabled")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Run the tiering job inside the server on a Flink MiniCluster (with"
                                    + " tiering.embedded.parallelism readers). Turn off when"
                                    + " 'tributary tiering-job' runs on a Flink cluster instead.");

    /** Options this extension reads (the parallelism option belongs to the job). */
    public static List<ConfigOption<?>> options() {
        return List.of(EMBEDDED_ENABLED, TieringOptions.EMBEDDED_PARALLELISM);
    }

    private EmbeddedTiering tiering;

    @Override
    public void start(ServerContext ctx) throws Exception {
        // the server resolved the lake warehouse: the job's writers use the same one
        Configuration conf = ctx.configuration();
        conf.validate(options());
        if (!conf.get(EMBEDDED_ENABLED)) {
            LOG.info("embedded tiering disabled (tiering.embedded.enabled=false)");
            return;
        }
        String token = ctx.token() == null || ctx.token().isEmpty() ? null : ctx.token();
        tiering =
                EmbeddedTiering.start(
                        GatewayTieringService.factory(ctx.rpcTarget(), token, Map.of()), conf);
    }

    @Override
    public void close() throws Exception {
        if (tiering != null) {
            tiering.close();
            LOG.info("embedded tiering stopped");
        }
    }
}
