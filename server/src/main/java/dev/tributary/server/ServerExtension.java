package dev.tributary.server;

import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.spi.LakeCommitStep;
import io.grpc.ServerInterceptor;
import java.util.List;

/**
 * A component that runs inside the server and follows its table lifecycle: the seam for lake table
 * creation and the embedded tiering job. Extensions are found with {@link java.util.ServiceLoader}
 * ({@code META-INF/services/dev.tributary.server.ServerExtension}) or passed to {@link
 * TributaryServer#start(dev.tributary.common.config.Configuration, dev.tributary.common.time.Clock,
 * java.util.List)}.
 *
 * <p>Table callbacks run on the calling RPC thread after the change is durable in the coordinator
 * and the store, and before the client gets its answer; an exception fails the client's call (the
 * change stays). Keep them quick or hand work to an own thread.
 */
public interface ServerExtension extends AutoCloseable {

    /**
     * Interceptors wrapped around every gRPC service of the server (inside authentication), e.g.
     * for auditing or fault injection; asked once, before the server binds its port.
     */
    default List<ServerInterceptor> rpcInterceptors() {
        return List.of();
    }

    /**
     * The lake commit step the coordinator uses, given the server's own; an extension may wrap it
     * (e.g. to audit commits, or to inject faults in tests). Asked once, before the coordinator
     * starts.
     */
    default LakeCommitStep lakeCommitStep(LakeCommitStep step) {
        return step;
    }

    /** Called once when the server has bound its ports and recovered every table. */
    default void start(ServerContext context) throws Exception {}

    default void onTableCreated(TableInfo table) {}

    default void onTableAltered(TableInfo before, TableInfo after) {}

    /**
     * @param dropLakeTable the user asked to drop the table's lake table too; otherwise it stays
     */
    default void onTableDropped(TableInfo table, boolean dropLakeTable) {}

    /** Called on shutdown, before the store closes. */
    @Override
    default void close() throws Exception {}
}
