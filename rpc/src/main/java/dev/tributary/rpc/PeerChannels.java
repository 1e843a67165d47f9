package dev.tributary.rpc;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;

/** Channels from one server to another (heartbeats, in-sync set changes, replica fetches). */
public final class PeerChannels {
    private PeerChannels() {}

    /**
     * A plaintext channel to {@code target} ({@code host:port}) presenting the cluster's bearer
     * token on every call.
     *
     * @param token the cluster's bearer token, or empty for none
     * @param maxInboundBytes the largest answer accepted
     */
    public static ManagedChannel open(String target, String token, int maxInboundBytes) {
        NettyChannelBuilder builder =
                NettyChannelBuilder.forTarget(target)
                        .usePlaintext()
                        .maxInboundMessageSize(maxInboundBytes);
        if (!token.isEmpty()) {
            Metadata headers = new Metadata();
            headers.put(AuthHeaders.AUTHORIZATION, AuthHeaders.bearer(token));
            builder.intercept(MetadataUtils.newAttachHeadersInterceptor(headers));
        }
        return builder.build();
    }
}
