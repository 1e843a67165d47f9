package dev.tributary.flink;

import dev.tributary.server.ServerContext;
import dev.tributary.server.ServerExtension;
import dev.tributary.tiering.job.EmbeddedTiering;
import dev.tributary.tiering.service.GatewayTieringService;
import java.util.Map;

/**
 * The embedded tiering job as a server extension, wired like the shipped one (cli) without
 * depending on the cli module: the real job on a MiniCluster, through the real client gateway.
 */
final class TestTieringExtension implements ServerExtension {
    private EmbeddedTiering tiering;

    @Override
    public void start(ServerContext ctx) throws Exception {
        String token = ctx.token() == null || ctx.token().isEmpty() ? null : ctx.token();
        tiering =
                EmbeddedTiering.start(
                        GatewayTieringService.factory(ctx.rpcTarget(), token, Map.of()),
                        ctx.configuration());
    }

    @Override
    public void close() throws Exception {
        if (tiering != null) {
            tiering.close();
        }
    }
}
