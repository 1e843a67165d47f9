package dev.tributary.tiering.server;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.ConfigOptions;
import dev.tributary.common.config.Configuration;
import dev.tributary.server.ServerContext;
import dev.tributary.server.ServerExtension;
import dev.tributary.tiering.job.EmbeddedTiering;
import dev.tributary.tiering.service.GatewayTieringService;
import dev.tributary.tiering.service.TieringServiceFactory;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The embedded tiering job as a {@link ServerExtension}, for this module's tests: tiering must not
 * depend on the server (or the cli module, where the shipped extension lives), so the tests wire
 * the same three lines themselves. The server owns the lake tables.
 */
public final class EmbeddedTieringExtension implements ServerExtension {
    public static final ConfigOption<Boolean> EMBEDDED_ENABLED =
            ConfigOptions.key("tiering.embedded.enabled")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription("Run the tiering job inside the server.");

    private final UnaryOperator<TieringServiceFactory> wrap;
    private EmbeddedTiering tiering;

    public EmbeddedTieringExtension() {
        this(UnaryOperator.identity());
    }

    /** With the job's service wrapped, e.g. by {@code FaultyReads::wrap}. */
    public EmbeddedTieringExtension(UnaryOperator<TieringServiceFactory> wrap) {
        this.wrap = wrap;
    }

    @Override
    public void start(ServerContext ctx) throws Exception {
        Configuration conf = ctx.configuration();
        if (conf.get(EMBEDDED_ENABLED)) {
            String token = ctx.token() == null || ctx.token().isEmpty() ? null : ctx.token();
            tiering =
                    EmbeddedTiering.start(
                            wrap.apply(
                                    GatewayTieringService.factory(
                                            ctx.rpcTarget(), token, Map.of())),
                            conf);
        }
    }

    @Override
    public void close() throws Exception {
        if (tiering != null) {
            tiering.close();
        }
    }
}
