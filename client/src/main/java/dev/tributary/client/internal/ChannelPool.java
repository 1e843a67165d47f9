package dev.tributary.client.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The channels of one connection (issue 22 step 3): the bootstrap channel the user connected to,
 * and one {@link RpcClient} per server address the cluster named (a bucket's holder, the
 * coordinator), opened on first use and kept until {@link #close()}, which closes them all.
 *
 * <p>Addresses come from the servers' metadata, so their number is the cluster's size; the pool
 * still refuses to grow past {@link #MAX_CHANNELS} and answers the bootstrap channel instead (whose
 * server then refuses what it does not hold, a retriable error), so a corrupt or hostile answer
 * cannot make a client open unbounded connections.
 */
public final class ChannelPool implements AutoCloseable {
    /** At most this many channels besides the bootstrap one. */
    static final int MAX_CHANNELS = 256;

    private final RpcClient bootstrap;
    private final Function<String, RpcClient> opener;
    private final Map<String, RpcClient> byAddress = new LinkedHashMap<>();
    private boolean closed;

    /**
     * @param bootstrap the connection's channel; closed with the pool
     * @param opener opens a channel to one {@code host:port} (the connection's token and timeout)
     */
    public ChannelPool(RpcClient bootstrap, Function<String, RpcClient> opener) {
        this.bootstrap = bootstrap;
        this.opener = opener;
    }

    /** The channel to the address(es) the connection was opened with. */
    public RpcClient bootstrap() {
        return bootstrap;
    }

    /**
     * The channel to one server's registered {@code host:port}, opened now if it is the first use.
     *
     * @throws IllegalStateException after {@link #close()}
     * @throws dev.tributary.common.exception.InvalidInputException for a malformed address
     */
    public synchronized RpcClient forAddress(String address) {
        if (closed) {
            throw new IllegalStateException("the connection is closed");
        }
        RpcClient c = byAddress.get(address);
        if (c != null) {
            return c;
        }
        if (byAddress.size() >= MAX_CHANNELS) {
            return bootstrap;
        }
        c = opener.apply(address);
        byAddress.put(address, c);
        return c;
    }

    /** How many channels were opened besides the bootstrap one. */
    public synchronized int openedCount() {
        return byAddress.size();
    }

    /** Closes every channel, the bootstrap one last; idempotent. */
    @Override
    public void close() {
        List<RpcClient> toClose;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            toClose = new ArrayList<>(byAddress.values());
            byAddress.clear();
        }
        RuntimeException first = null;
        for (RpcClient c : toClose) {
            try {
                c.close();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        bootstrap.close();
        if (first != null) {
            throw first;
        }
    }
}
