package dev.tributary.tiering.soak;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on loopback between the clients (writers, tiering jobs) and the server, which the
 * soak uses to cut the network: {@link #reset} drops every connection and refuses new ones for a
 * while, {@link #stall} stops moving bytes (the connections stay open and the data waits, as behind
 * a partition) until {@link #heal}, which can also drop the stalled connections, as a partition
 * does once the peers' timeouts fire.
 */
public final class TcpProxy implements AutoCloseable {
    private enum Mode {
        PASS,
        REFUSE,
        STALL
    }

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final List<Link> links = new CopyOnWriteArrayList<>();
    private final Object lock = new Object();
    private final AtomicInteger threads = new AtomicInteger();
    private volatile Mode mode = Mode.PASS;
    private volatile boolean closed;

    public TcpProxy(int targetPort) throws IOException {
        this.target = new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort);
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::acceptLoop, "soak-proxy-accept");
        t.setDaemon(true);
        t.start();
    }

    /** The address clients connect to. */
    public String address() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    /** Drops every connection; new ones are refused until {@link #heal}. */
    public void reset() {
        mode = Mode.REFUSE;
        closeAll();
    }

    /** Stops forwarding bytes on every connection, new ones included, until {@link #heal}. */
    public void stall() {
        mode = Mode.STALL;
    }

    /**
     * Back to normal.
     *
     * @param dropStalled close the connections that were stalled (their peers gave up on them)
     */
    public void heal(boolean dropStalled) {
        if (dropStalled) {
            closeAll();
        }
        synchronized (lock) {
            mode = Mode.PASS;
            lock.notifyAll();
        }
    }

    private void closeAll() {
        for (Link l : links) {
            l.close();
        }
        links.clear();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return;
            }
            if (mode == Mode.REFUSE) {
                quietly(client);
                continue;
            }
            Socket server = new Socket();
            try {
                server.connect(target, 2_000);
            } catch (IOException e) {
                // the server is down: the client sees the connection fail, as it would directly
                quietly(client);
                quietly(server);
                continue;
            }
            Link link = new Link(client, server);
            links.add(link);
            link.start();
        }
    }

    /** One proxied connection: a pump thread per direction. */
    private final class Link {
        private final Socket client;
        private final Socket server;

        Link(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void start() {
            pump(client, server, "up");
            pump(server, client, "down");
        }

        private void pump(Socket from, Socket to, String dir) {
            Thread t =
                    new Thread(
                            () -> {
                                byte[] buf = new byte[64 * 1024];
                                try (InputStream in = from.getInputStream();
                                        OutputStream out = to.getOutputStream()) {
                                    while (true) {
                                        awaitPass();
                                        int n = in.read(buf);
                                        if (n < 0) {
                                            break;
                                        }
                                        awaitPass();
                                        out.write(buf, 0, n);
                                        out.flush();
                                    }
                                } catch (IOException | InterruptedException e) {
                                    // closed by the peer or by a fault
                                } finally {
                                    close();
                                }
                            },
                            "soak-proxy-" + dir + "-" + threads.incrementAndGet());
            t.setDaemon(true);
            t.start();
        }

        void close() {
            quietly(client);
            quietly(server);
            links.remove(this);
        }
    }

    private void awaitPass() throws InterruptedException {
        if (mode != Mode.STALL) {
            return;
        }
        synchronized (lock) {
            while (mode == Mode.STALL && !closed) {
                lock.wait(100);
            }
        }
    }

    private static void quietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() {
        closed = true;
        heal(true);
        try {
            listener.close();
        } catch (IOException e) {
            // nothing to do
        }
    }
}
