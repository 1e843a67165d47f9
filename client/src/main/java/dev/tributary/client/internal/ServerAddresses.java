package dev.tributary.client.internal;

import dev.tributary.common.exception.InvalidInputException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The servers a connection may talk to: {@code host:port[,host:port...]}, tried in the given order
 * (T49: clients take any server address or a list). IPv6 hosts are written in brackets, {@code
 * [::1]:9123}. Parsing refuses anything else with a message naming the entry, so a typo is not
 * found only when the first call times out.
 */
public record ServerAddresses(List<HostPort> all) {

    /** The most addresses a connection takes: a bootstrap list, not a server inventory. */
    public static final int MAX_ADDRESSES = 64;

    /** One {@code host:port}. */
    public record HostPort(String host, int port) {
        @Override
        public String toString() {
            return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        }
    }

    public ServerAddresses {
        all = List.copyOf(all);
    }

    /**
     * Parses a comma-separated list; blanks around entries are ignored, duplicates are kept once.
     *
     * @throws InvalidInputException for an empty list, a malformed entry or more than {@link
     *     #MAX_ADDRESSES} entries
     */
    public static ServerAddresses parse(String addresses) {
        if (addresses == null || addresses.isBlank()) {
            throw new InvalidInputException(
                    "no server address: expected host:port, or several separated by commas");
        }
        String[] entries = addresses.split(",", -1);
        if (entries.length > MAX_ADDRESSES) {
            throw new InvalidInputException(
                    "too many server addresses ("
                            + entries.length
                            + "); give at most "
                            + MAX_ADDRESSES
                            + ": any few servers of the cluster are enough");
        }
        Set<HostPort> out = new LinkedHashSet<>();
        for (String entry : entries) {
            out.add(parseOne(entry.trim(), addresses));
        }
        return new ServerAddresses(new ArrayList<>(out));
    }

    private static HostPort parseOne(String entry, String whole) {
        String host;
        String port;
        if (entry.startsWith("[")) {
            int close = entry.indexOf(']');
            if (close < 0 || close + 1 >= entry.length() || entry.charAt(close + 1) != ':') {
                throw malformed(entry, whole);
            }
            host = entry.substring(1, close);
            port = entry.substring(close + 2);
        } else {
            int colon = entry.lastIndexOf(':');
            if (colon < 0 || entry.indexOf(':') != colon) {
                throw malformed(entry, whole);
            }
            host = entry.substring(0, colon);
            port = entry.substring(colon + 1);
        }
        if (host.isEmpty() || host.chars().anyMatch(c -> Character.isWhitespace(c) || c == '/')) {
            throw malformed(entry, whole);
        }
        int p;
        try {
            p = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw malformed(entry, whole);
        }
        if (p < 1 || p > 65535) {
            throw malformed(entry, whole);
        }
        return new HostPort(host, p);
    }

    private static InvalidInputException malformed(String entry, String whole) {
        return new InvalidInputException(
                "server address '"
                        + entry
                        + "' (in '"
                        + whole
                        + "') is not host:port with a port 1-65535, e.g. 127.0.0.1:9123 or"
                        + " [::1]:9123; separate several with commas");
    }

    /** The first address: where a single-address connection goes. */
    public HostPort first() {
        return all.get(0);
    }

    public int size() {
        return all.size();
    }

    @Override
    public String toString() {
        return String.join(",", all.stream().map(HostPort::toString).toList());
    }
}
