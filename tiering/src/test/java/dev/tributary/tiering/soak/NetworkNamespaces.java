package dev.tributary.tiering.soak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A network of its own for each soak server, so one server can be cut off from all the others and
 * from every client (a partition) without touching its process: every server runs in a Linux
 * network namespace of its own ({@code ip netns exec}), joined to one bridge in this namespace by a
 * veth pair; the soak, the tiering job and the writers stay here and reach the servers over the
 * bridge. Cutting a server takes its veth end here down, so packets to and from it are lost (not
 * refused: like a pulled cable, TCP connections hang until their timeouts); healing takes it up.
 *
 * <p>Needs root (CAP_NET_ADMIN) and iproute2; {@link #available()} tells. The file system is
 * shared, so the lake and the control directory stay common to all servers.
 */
final class NetworkNamespaces implements AutoCloseable {
    private final String tag;
    private final int subnet;
    private final int count;
    private final List<String> created = new ArrayList<>();

    private NetworkNamespaces(String tag, int subnet, int count) {
        this.tag = tag;
        this.subnet = subnet;
        this.count = count;
    }

    /**
     * Whether this machine lets the soak create network namespaces (root with CAP_NET_ADMIN) and
     * {@code -Dsoak.network-namespaces=false} does not forbid them (which replays, as root, a seed
     * of a run where they were missing: the kinds drawn depend on it).
     */
    static boolean available() {
        if (!Boolean.parseBoolean(System.getProperty("soak.network-namespaces", "true"))) {
            return false;
        }
        String probe = "trib-probe-" + ProcessHandle.current().pid();
        try {
            ip("netns", "add", probe);
            ip("netns", "del", probe);
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Creates a bridge with address {@code 198.18.<subnet>.254} and, for servers 1..{@code count},
     * a namespace with address {@code 198.18.<subnet>.<id>} joined to it (198.18.0.0/15 is the
     * range RFC 2544 sets aside for benchmarks, so no real network of the machine is in the way).
     *
     * @param seed picks the subnet and the names, so two soaks on one machine do not collide
     */
    static NetworkNamespaces create(int count, long seed) throws IOException {
        int subnet = (int) Math.floorMod(seed ^ ProcessHandle.current().pid(), 256L);
        String tag = Integer.toString(subnet);
        NetworkNamespaces n = new NetworkNamespaces(tag, subnet, count);
        try {
            n.build();
        } catch (IOException | RuntimeException e) {
            n.close();
            throw e;
        }
        return n;
    }

    private void build() throws IOException {
        String bridge = bridge();
        ip("link", "add", bridge, "type", "bridge");
        created.add("link:" + bridge);
        ip("addr", "add", "198.18." + subnet + ".254/24", "dev", bridge);
        ip("link", "set", bridge, "up");
        for (int id = 1; id <= count; id++) {
            String ns = namespace(id);
            ip("netns", "add", ns);
            created.add("netns:" + ns);
            String here = veth(id);
            String there = here + "p";
            ip("link", "add", here, "type", "veth", "peer", "name", there);
            created.add("link:" + here);
            ip("link", "set", there, "netns", ns);
            ip("link", "set", here, "master", bridge);
            ip("link", "set", here, "up");
            ip("netns", "exec", ns, "ip", "addr", "add", host(id) + "/24", "dev", there);
            ip("netns", "exec", ns, "ip", "link", "set", there, "up");
            ip("netns", "exec", ns, "ip", "link", "set", "lo", "up");
        }
    }

    /** The address server {@code id} binds and advertises. */
    String host(int id) {
        return "198.18." + subnet + "." + id;
    }

    /** The command prefix that runs a process in server {@code id}'s namespace. */
    List<String> prefix(int id) {
        return List.of("ip", "netns", "exec", namespace(id));
    }

    /** Cuts server {@code id} off from everyone. */
    void cut(int id) throws IOException {
        ip("link", "set", veth(id), "down");
    }

    /** Joins server {@code id} to the others again. */
    void heal(int id) throws IOException {
        ip("link", "set", veth(id), "up");
    }

    private String namespace(int id) {
        return "trib-" + tag + "-" + id;
    }

    private String veth(int id) {
        return "tv" + tag + "s" + id;
    }

    private String bridge() {
        return "tbr" + tag;
    }

    private static void ip(String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add("ip");
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " did not finish in 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", cmd), e);
        }
        if (p.exitValue() != 0) {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            throw new IOException(String.join(" ", cmd) + " failed: " + out.strip());
        }
    }

    @Override
    public void close() {
        for (int i = created.size() - 1; i >= 0; i--) {
            String[] what = created.get(i).split(":", 2);
            try {
                if (what[0].equals("netns")) {
                    ip("netns", "del", what[1]);
                } else {
                    ip("link", "del", what[1]);
                }
            } catch (IOException e) {
                // best effort: a veth goes with its namespace anyway
            }
        }
        created.clear();
    }
}
