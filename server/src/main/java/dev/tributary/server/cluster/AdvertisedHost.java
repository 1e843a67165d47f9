package dev.tributary.server.cluster;

import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.server.config.ServerOptions;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Set;

/**
 * The host this server puts in its cluster registration (T49): {@code server.advertised-host} when
 * set, else {@code server.bind-host}, except that a wildcard bind host ({@code 0.0.0.0}, {@code
 * ::}) is replaced by this machine's address: a wildcard means "every interface" to a listener but
 * nothing to a peer that must connect.
 */
public final class AdvertisedHost {
    private static final Set<String> WILDCARDS =
            Set.of("0.0.0.0", "::", "[::]", "0:0:0:0:0:0:0:0", "[0:0:0:0:0:0:0:0]");

    /** This machine's address, as a source so tests can name one. */
    @FunctionalInterface
    public interface LocalHost {
        String address() throws UnknownHostException;
    }

    /** The machine's address from {@link InetAddress#getLocalHost()}. */
    public static final LocalHost SYSTEM = () -> InetAddress.getLocalHost().getHostAddress();

    private AdvertisedHost() {}

    /** Whether {@code host} is a wildcard address. */
    public static boolean isWildcard(String host) {
        return WILDCARDS.contains(host.trim());
    }

    /**
     * The advertised host.
     *
     * @param advertised {@code server.advertised-host}, empty when unset
     * @param bindHost {@code server.bind-host}
     * @throws InvalidConfigException when the advertised host is itself a wildcard, or the bind
     *     host is one and this machine's address cannot be found
     */
    public static String resolve(String advertised, String bindHost, LocalHost localHost) {
        String a = advertised.trim();
        if (!a.isEmpty()) {
            if (isWildcard(a)) {
                throw new InvalidConfigException(
                        "'"
                                + ServerOptions.ADVERTISED_HOST.key()
                                + "' is the wildcard '"
                                + a
                                + "', which no peer can connect to; set the host name or address"
                                + " other machines reach this server at");
            }
            return a;
        }
        if (!isWildcard(bindHost)) {
            return bindHost.trim();
        }
        try {
            String local = localHost.address();
            // an IPv6 literal needs brackets in host:port
            return local.contains(":") && !local.startsWith("[") ? "[" + local + "]" : local;
        } catch (UnknownHostException e) {
            throw new InvalidConfigException(
                    "'"
                            + ServerOptions.BIND_HOST.key()
                            + "' is the wildcard '"
                            + bindHost
                            + "' and this machine's address cannot be found ("
                            + e.getMessage()
                            + "); set '"
                            + ServerOptions.ADVERTISED_HOST.key()
                            + "'",
                    e);
        }
    }
}
