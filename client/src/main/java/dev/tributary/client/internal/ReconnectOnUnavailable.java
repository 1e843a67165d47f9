package dev.tributary.client.internal;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;

/**
 * Resets the channel's reconnect backoff after a call failed with UNAVAILABLE (server down,
 * restarting, unreachable), so the channel reconnects when the caller retries instead of when
 * gRPC's own backoff says, which grows to two minutes during a long outage. Every caller of the
 * client retries with a backoff of its own (writers, the tiering job's heartbeats, requests and
 * registration), so this does not become a busy loop, and a job or writer is back within its own
 * retry interval after the server is.
 */
final class ReconnectOnUnavailable implements ClientInterceptor {
    private final Runnable resetBackoff;

    ReconnectOnUnavailable(Runnable resetBackoff) {
        this.resetBackoff = resetBackoff;
    }

    @Override
    public <Q, R> ClientCall<Q, R> interceptCall(
            MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
        return new ForwardingClientCall.SimpleForwardingClientCall<>(
                next.newCall(method, options)) {
            @Override
            public void start(Listener<R> listener, Metadata headers) {
                super.start(
                        new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(
                                listener) {
                            @Override
                            public void onClose(Status status, Metadata trailers) {
                                if (status.getCode() == Status.Code.UNAVAILABLE) {
                                    resetBackoff.run();
                                }
                                super.onClose(status, trailers);
                            }
                        },
                        headers);
            }
        };
    }
}
