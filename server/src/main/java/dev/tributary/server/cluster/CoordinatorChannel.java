package dev.tributary.server.cluster;

import dev.tributary.rpc.PeerChannels;
import dev.tributary.rpc.proto.ClusterServiceGrpc;
import io.grpc.ManagedChannel;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server's channel to the coordinator's {@code ClusterService}, wherever the coordinator is: its
 * address is asked at each use, and a move closes the old channel and opens one to the new address.
 * Used by one thread at a time.
 */
final class CoordinatorChannel implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorChannel.class);

    private final Supplier<Optional<String>> address;
    private final String token;
    private String target;
    private ManagedChannel channel;
    private ClusterServiceGrpc.ClusterServiceBlockingStub stub;

    /**
     * @param address {@code host:port} of the coordinator's gRPC endpoint; empty while none is
     *     known
     * @param token the cluster's bearer token, or empty
     */
    CoordinatorChannel(Supplier<Optional<String>> address, String token) {
        this.address = address;
        this.token = token;
    }

    /** A stub on the coordinator's current address; empty while no coordinator is known. */
    Optional<ClusterServiceGrpc.ClusterServiceBlockingStub> stub() {
        Optional<String> now = address.get();
        if (now.isEmpty()) {
            return Optional.empty();
        }
        if (!now.get().equals(target)) {
            if (channel != null) {
                channel.shutdownNow();
                LOG.info("the coordinator moved from {} to {}", target, now.get());
            }
            target = now.get();
            channel = PeerChannels.open(target, token, 4 << 20);
            stub = ClusterServiceGrpc.newBlockingStub(channel);
        }
        return Optional.of(stub);
    }

    /** Whether the coordinator's address is not the one last used. */
    boolean moved() {
        return address.get().filter(a -> !a.equals(target)).isPresent();
    }

    /** The address last used, or null. */
    String target() {
        return target;
    }

    @Override
    public void close() {
        if (channel != null) {
            channel.shutdownNow();
        }
    }
}
