package dev.tributary.client.internal;

import dev.tributary.common.concurrent.DaemonThreads;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.rpc.AuthHeaders;
import dev.tributary.rpc.error.GrpcErrors;
import dev.tributary.rpc.proto.AdminServiceGrpc;
import dev.tributary.rpc.proto.ReadServiceGrpc;
import dev.tributary.rpc.proto.TieringServiceGrpc;
import dev.tributary.rpc.proto.WriteServiceGrpc;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * The channel and stubs of one connection. Every call carries the bearer token; every failure is
 * translated to the typed exception the server threw.
 *
 * <p>The connection owns its network and callback threads (daemons named {@code
 * tributary-client-<n>-...}) and stops them in {@link #close()}, instead of borrowing gRPC's
 * process-wide pools that linger after the channel closes: inside a Flink job those lingering
 * threads would outlive the job's class loader.
 */
public final class RpcClient implements AutoCloseable {
    private static final AtomicInteger NEXT_ID = new AtomicInteger();

    private volatile ManagedChannel channel;
    private final NioEventLoopGroup eventLoop;
    private final ExecutorService callbacks;
    private final Duration timeout;
    private final AdminServiceGrpc.AdminServiceBlockingStub admin;
    private final WriteServiceGrpc.WriteServiceStub write;
    private final ReadServiceGrpc.ReadServiceBlockingStub read;
    private final ReadServiceGrpc.ReadServiceStub readAsync;
    private final TieringServiceGrpc.TieringServiceBlockingStub tiering;
    private final TieringServiceGrpc.TieringServiceStub tieringAsync;

    /**
     * @param address {@code host:port}, or several separated by commas: the channel connects to the
     *     first that answers, in order, and moves to another when it goes away
     * @throws dev.tributary.common.exception.InvalidInputException for a malformed address
     */
    public RpcClient(String address, String token, Duration timeout) {
        ServerAddresses servers = ServerAddresses.parse(address);
        String prefix = "tributary-client-" + NEXT_ID.incrementAndGet();
        this.eventLoop = new NioEventLoopGroup(1, DaemonThreads.named(prefix + "-io"));
        this.callbacks = Executors.newCachedThreadPool(DaemonThreads.named(prefix + "-callback"));
        NettyChannelBuilder builder =
                NettyChannelBuilder.forTarget(
                                servers.size() == 1
                                        ? servers.first().toString()
                                        : ServerListResolver.target(servers))
                        .defaultLoadBalancingPolicy("pick_first")
                        .eventLoopGroup(eventLoop)
                        .channelType(NioSocketChannel.class)
                        .executor(callbacks)
                        .usePlaintext()
                        // several 512 KB batches in flight must not stall on HTTP/2 window updates
                        .flowControlWindow(16 << 20)
                        .maxInboundMessageSize(64 << 20);
        if (token != null && !token.isEmpty()) {
            builder.intercept(new TokenInterceptor(token));
        }
        builder.intercept(
                new ReconnectOnUnavailable(
                        () -> {
                            ManagedChannel c = channel;
                            if (c != null) {
                                c.resetConnectBackoff();
                            }
                        }));
        this.channel = builder.build();
        this.timeout = timeout;
        this.admin = AdminServiceGrpc.newBlockingStub(channel);
        this.write = WriteServiceGrpc.newStub(channel);
        this.read = ReadServiceGrpc.newBlockingStub(channel);
        this.readAsync = ReadServiceGrpc.newStub(channel);
        this.tiering = TieringServiceGrpc.newBlockingStub(channel);
        this.tieringAsync = TieringServiceGrpc.newStub(channel);
    }

    public AdminServiceGrpc.AdminServiceBlockingStub admin() {
        return admin.withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    public WriteServiceGrpc.WriteServiceStub write() {
        return write.withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    public ReadServiceGrpc.ReadServiceBlockingStub read() {
        return read.withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Read stub without deadline, for long streams. */
    public ReadServiceGrpc.ReadServiceBlockingStub readStream() {
        return read;
    }

    public ReadServiceGrpc.ReadServiceStub readAsync() {
        return readAsync;
    }

    /** The asynchronous read stub with the request timeout, for unary calls. */
    public ReadServiceGrpc.ReadServiceStub readAsyncWithTimeout() {
        return readAsync.withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    public TieringServiceGrpc.TieringServiceBlockingStub tiering() {
        return tiering.withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * The tiering stub for a call the server may legitimately hold for {@code wait} (a long poll, a
     * lake commit): the deadline is the request timeout on top of it.
     */
    public TieringServiceGrpc.TieringServiceBlockingStub tiering(Duration wait) {
        return tiering.withDeadlineAfter(timeout.plus(wait).toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The asynchronous tiering stub, with the request timeout on top of {@code wait}. */
    public TieringServiceGrpc.TieringServiceStub tieringAsync(Duration wait) {
        return tieringAsync.withDeadlineAfter(timeout.plus(wait).toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Runs a blocking call, rethrowing its failure as the typed exception. */
    public static <T> T call(Supplier<T> call) {
        try {
            return call.get();
        } catch (TributaryException e) {
            throw e;
        } catch (RuntimeException e) {
            throw GrpcErrors.fromThrowable(e);
        }
    }

    /** Starts an async unary call and completes the future with its result or typed failure. */
    public static <Q, R> CompletableFuture<R> callAsync(
            BiConsumer<Q, StreamObserver<R>> method, Q request) {
        CompletableFuture<R> future = new CompletableFuture<>();
        method.accept(
                request,
                new StreamObserver<>() {
                    @Override
                    public void onNext(R value) {
                        future.complete(value);
                    }

                    @Override
                    public void onError(Throwable t) {
                        future.completeExceptionally(GrpcErrors.fromThrowable(t));
                    }

                    @Override
                    public void onCompleted() {
                        future.completeExceptionally(
                                new IllegalStateException("call completed without a response"));
                    }
                });
        return future;
    }

    /** Closes the channel, then stops this connection's threads and waits for them. */
    @Override
    public void close() {
        channel.shutdown();
        try {
            if (!channel.awaitTermination(5, TimeUnit.SECONDS)) {
                channel.shutdownNow();
                channel.awaitTermination(1, TimeUnit.SECONDS);
            }
            eventLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
            callbacks.shutdown();
            if (!callbacks.awaitTermination(5, TimeUnit.SECONDS)) {
                callbacks.shutdownNow();
            }
        } catch (InterruptedException e) {
            channel.shutdownNow();
            eventLoop.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            callbacks.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private static final class TokenInterceptor implements ClientInterceptor {
        private final String header;

        TokenInterceptor(String token) {
            this.header = AuthHeaders.bearer(token);
        }

        @Override
        public <Q, R> ClientCall<Q, R> interceptCall(
                MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
            return new ForwardingClientCall.SimpleForwardingClientCall<>(
                    next.newCall(method, options)) {
                @Override
                public void start(Listener<R> listener, Metadata headers) {
                    headers.put(AuthHeaders.AUTHORIZATION, header);
                    super.start(listener, headers);
                }
            };
        }
    }
}
