package dev.tributary.client.internal;

import io.grpc.EquivalentAddressGroup;
import io.grpc.NameResolver;
import io.grpc.NameResolverProvider;
import io.grpc.NameResolverRegistry;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * Resolves a connection's list of server addresses for gRPC, so a channel's {@code pick_first}
 * policy connects to the first server that answers, in the order the user gave, and moves on to the
 * next when that one goes away. gRPC's own DNS resolver takes one host only.
 *
 * <p>Registered once in gRPC's registry of this class loader under its own scheme; the target
 * carries the addresses, so no state is shared between channels.
 */
final class ServerListResolver extends NameResolver {
    static final String SCHEME = "tributary-servers";

    private final ServerAddresses addresses;
    private final SynchronizationContext sync;
    private final Executor resolveOn;
    private Listener2 listener;
    private boolean resolving;
    private boolean shutdown;

    private ServerListResolver(ServerAddresses addresses, Args args) {
        this.addresses = addresses;
        this.sync = args.getSynchronizationContext();
        Executor offload = args.getOffloadExecutor();
        // host names resolve with blocking lookups: never on the synchronization context
        this.resolveOn =
                offload != null ? offload : r -> new Thread(r, "tributary-resolve").start();
    }

    /** The channel target naming {@code addresses}; the resolver is registered by this call. */
    static String target(ServerAddresses addresses) {
        Provider.registerOnce();
        return SCHEME + ":///" + URLEncoder.encode(addresses.toString(), StandardCharsets.UTF_8);
    }

    @Override
    public String getServiceAuthority() {
        // one authority for the whole list: the servers of one cluster serve the same services
        return addresses.first().toString();
    }

    @Override
    public void start(Listener2 listener) {
        this.listener = listener;
        resolve();
    }

    @Override
    public void refresh() {
        resolve();
    }

    @Override
    public void shutdown() {
        shutdown = true;
    }

    private void resolve() {
        if (resolving || shutdown) {
            return;
        }
        resolving = true;
        resolveOn.execute(
                () -> {
                    List<EquivalentAddressGroup> groups = new ArrayList<>();
                    List<String> unresolved = new ArrayList<>();
                    for (ServerAddresses.HostPort hp : addresses.all()) {
                        try {
                            List<SocketAddress> one = new ArrayList<>();
                            for (InetAddress a : InetAddress.getAllByName(hp.host())) {
                                one.add(new InetSocketAddress(a, hp.port()));
                            }
                            groups.add(new EquivalentAddressGroup(one));
                        } catch (UnknownHostException e) {
                            unresolved.add(hp.toString());
                        }
                    }
                    sync.execute(() -> deliver(groups, unresolved));
                });
    }

    private void deliver(List<EquivalentAddressGroup> groups, List<String> unresolved) {
        resolving = false;
        if (shutdown) {
            return;
        }
        if (groups.isEmpty()) {
            listener.onError(
                    Status.UNAVAILABLE.withDescription(
                            "no server address resolves: " + String.join(", ", unresolved)));
            return;
        }
        listener.onResult(ResolutionResult.newBuilder().setAddresses(groups).build());
    }

    /** gRPC's factory for {@link #SCHEME} targets. */
    static final class Provider extends NameResolverProvider {
        private static boolean registered;

        static synchronized void registerOnce() {
            if (!registered) {
                NameResolverRegistry.getDefaultRegistry().register(new Provider());
                registered = true;
            }
        }

        @Override
        public NameResolver newNameResolver(URI target, Args args) {
            if (!SCHEME.equals(target.getScheme())) {
                return null;
            }
            String path = target.getPath();
            return new ServerListResolver(
                    ServerAddresses.parse(path.startsWith("/") ? path.substring(1) : path), args);
        }

        @Override
        public String getDefaultScheme() {
            return SCHEME;
        }

        @Override
        protected boolean isAvailable() {
            return true;
        }

        @Override
        protected int priority() {
            // below gRPC's DNS resolver (5), so a target without a scheme stays DNS's
            return 1;
        }

        @Override
        public Collection<Class<? extends SocketAddress>> getProducedSocketAddressTypes() {
            return List.of(InetSocketAddress.class);
        }
    }
}
