package dev.tributary.lake.api.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A loopback TCP proxy in front of an S3 server that injects the faults of an object store, for
 * tests (T47). It understands HTTP/1.1 request boundaries (bodies by {@code Content-Length} or
 * chunked; clients here do not pipeline) and decides per request, by {@link #rule(Function)}:
 *
 * <ul>
 *   <li>{@link Fault#FORWARD}: passes it to the server and the response back;
 *   <li>{@link Fault#delay}: the same after a pause (a latency spike, or 30 ms on every request);
 *   <li>{@link Fault#SLOW_DOWN}: reads the request body, answers {@code 503 SlowDown} with S3's XML
 *       error body and {@code Connection: close}, and closes the connection (S3's throttling);
 *   <li>{@link Fault#RESET}: closes the connection with an RST (SO_LINGER 0) before answering.
 * </ul>
 *
 * A request with {@code Expect: 100-continue} gets the proxy's own {@code 100 Continue} so its body
 * arrives before the decision; the server's interim answers are dropped. Requests and faults are
 * counted by method and by kind.
 */
public final class S3FaultProxy implements AutoCloseable {
    /** What the proxy does with one request. */
    public enum Action {
        FORWARD,
        DELAY,
        SLOW_DOWN,
        RESET
    }

    /** The proxy's decision for one request. */
    public record Fault(Action action, long delayMillis) {
        public static final Fault FORWARD = new Fault(Action.FORWARD, 0);
        public static final Fault SLOW_DOWN = new Fault(Action.SLOW_DOWN, 0);
        public static final Fault RESET = new Fault(Action.RESET, 0);

        public static Fault delay(long millis) {
            return new Fault(Action.DELAY, millis);
        }
    }

    /** One request as the rule sees it: method, target (path and query) and headers. */
    public record Request(long number, String method, String target, Map<String, String> headers) {
        /** The header's value (case-insensitive name), or null. */
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        /** The path without the query. */
        public String path() {
            int q = target.indexOf('?');
            return q < 0 ? target : target.substring(0, q);
        }

        /** An UploadPart of a multipart upload. */
        public boolean isUploadPart() {
            return method.equals("PUT") && target.contains("uploadId=");
        }

        /** A CompleteMultipartUpload. */
        public boolean isCompleteMultipart() {
            return method.equals("POST") && target.contains("uploadId=");
        }

        /** A CreateMultipartUpload. */
        public boolean isCreateMultipart() {
            return method.equals("POST") && target.contains("?uploads");
        }
    }

    private static final byte[] SLOW_DOWN_BODY =
            ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>SlowDown</Code>"
                            + "<Message>Please reduce your request rate.</Message>"
                            + "<RequestId>tributary-fault-proxy</RequestId></Error>")
                    .getBytes(StandardCharsets.UTF_8);

    private final int targetPort;
    private final ServerSocket listener;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Map<String, AtomicLong> byMethod = new ConcurrentHashMap<>();
    private final Map<Action, AtomicLong> byAction = new ConcurrentHashMap<>();
    private final AtomicLong numbers = new AtomicLong();
    private volatile Function<Request, Fault> rule = r -> Fault.FORWARD;
    private volatile boolean closed;

    private S3FaultProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket();
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread t = new Thread(this::acceptLoop, "s3-fault-proxy-accept");
        t.setDaemon(true);
        t.start();
    }

    /** A proxy on a free loopback port forwarding to {@code s3}, every request forwarded. */
    public static S3FaultProxy start(S3Server s3) {
        return start(s3.port());
    }

    /** A proxy forwarding to a server on loopback {@code targetPort}. */
    public static S3FaultProxy start(int targetPort) {
        try {
            return new S3FaultProxy(targetPort);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * A rule choosing by a seeded random draw per request: a 503 with probability {@code slowDown},
     * a reset with {@code reset}, a delay of {@code delayMillis} with {@code delay}, else forward.
     * Same seed and same request order, same choices.
     */
    public static Function<Request, Fault> random(
            long seed, double slowDown, double reset, double delay, long delayMillis) {
        Random random = new Random(seed);
        return r -> {
            double x;
            synchronized (random) {
                x = random.nextDouble();
            }
            if (x < slowDown) {
                return Fault.SLOW_DOWN;
            } else if (x < slowDown + reset) {
                return Fault.RESET;
            } else if (x < slowDown + reset + delay) {
                return Fault.delay(delayMillis);
            }
            return Fault.FORWARD;
        };
    }

    /** Decides every request from now on. */
    public S3FaultProxy rule(Function<Request, Fault> rule) {
        this.rule = rule;
        return this;
    }

    /** {@code http://127.0.0.1:port}, to use as the S3 endpoint. */
    public String endpoint() {
        return "http://127.0.0.1:" + port();
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** Requests received, by HTTP method. */
    public Map<String, Long> requestsByMethod() {
        Map<String, Long> m = new TreeMap<>();
        byMethod.forEach((k, v) -> m.put(k, v.get()));
        return m;
    }

    /** Requests received. */
    public long requests() {
        return byMethod.values().stream().mapToLong(AtomicLong::get).sum();
    }

    /** Requests that met {@code action}. */
    public long count(Action action) {
        AtomicLong n = byAction.get(action);
        return n == null ? 0 : n.get();
    }

    /** Requests that met a fault (a 503, a reset or a delay). */
    public long faults() {
        return count(Action.SLOW_DOWN) + count(Action.RESET) + count(Action.DELAY);
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(listener);
        for (Socket s : List.copyOf(open)) {
            closeQuietly(s);
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            open.add(client);
            Thread t = new Thread(() -> serve(client), "s3-fault-proxy-conn");
            t.setDaemon(true);
            t.start();
        }
    }

    private void serve(Socket client) {
        Socket upstream = null;
        InputStream upIn = null;
        try {
            client.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(client.getInputStream(), 64 * 1024);
            OutputStream out = client.getOutputStream();
            while (!closed) {
                Head head = Head.read(in);
                if (head == null) {
                    return; // the client closed between requests
                }
                Request request =
                        new Request(
                                numbers.incrementAndGet(),
                                head.method(),
                                head.target(),
                                head.headers);
                byMethod.computeIfAbsent(request.method(), m -> new AtomicLong()).incrementAndGet();
                if ("100-continue".equalsIgnoreCase(request.header("expect"))) {
                    out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                }
                byte[] body = readBody(in, head);
                Fault fault = rule.apply(request);
                byAction.computeIfAbsent(fault.action(), a -> new AtomicLong()).incrementAndGet();
                switch (fault.action()) {
                    case RESET -> {
                        client.setSoLinger(true, 0);
                        return;
                    }
                    case SLOW_DOWN -> {
                        slowDown(out);
                        return;
                    }
                    case DELAY -> pause(fault.delayMillis());
                    case FORWARD -> {}
                }
                if (upstream == null) {
                    upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                    upstream.setTcpNoDelay(true);
                    open.add(upstream);
                    upIn = new BufferedInputStream(upstream.getInputStream(), 64 * 1024);
                }
                OutputStream up = upstream.getOutputStream();
                up.write(head.raw);
                up.write(body);
                up.flush();
                if (!relayResponse(upIn, out, request.method())) {
                    return; // the server closes the connection after this response
                }
            }
        } catch (IOException e) {
            // a peer went away: end this connection
        } finally {
            closeQuietly(client);
            open.remove(client);
            if (upstream != null) {
                closeQuietly(upstream);
                open.remove(upstream);
            }
        }
    }

    private static void slowDown(OutputStream out) throws IOException {
        String head =
                "HTTP/1.1 503 Slow Down\r\n"
                        + "Content-Type: application/xml\r\n"
                        + "Content-Length: "
                        + SLOW_DOWN_BODY.length
                        + "\r\n"
                        + "x-amz-request-id: tributary-fault-proxy\r\n"
                        + "Connection: close\r\n\r\n";
        out.write(head.getBytes(StandardCharsets.US_ASCII));
        out.write(SLOW_DOWN_BODY);
        out.flush();
    }

    /**
     * Copies one final response (after any 1xx, which are dropped) to the client.
     *
     * @return whether the connection stays open
     */
    private static boolean relayResponse(InputStream up, OutputStream out, String method)
            throws IOException {
        Head head;
        int status;
        do {
            head = Head.read(up);
            if (head == null) {
                throw new IOException("the S3 server closed the connection without answering");
            }
            status = Integer.parseInt(head.statusOrTarget.split(" ")[0]);
        } while (status >= 100 && status < 200);
        out.write(head.raw);
        boolean keepAlive = !"close".equalsIgnoreCase(head.headers.get("connection"));
        if (method.equals("HEAD") || status == 204 || status == 304) {
            out.flush();
            return keepAlive;
        }
        if (head.chunked()) {
            copyChunked(up, out);
        } else if (head.contentLength() >= 0) {
            copy(up, out, head.contentLength());
        } else {
            up.transferTo(out); // body until the server closes
            keepAlive = false;
        }
        out.flush();
        return keepAlive;
    }

    private static byte[] readBody(InputStream in, Head head) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (head.chunked()) {
            copyChunked(in, body);
        } else if (head.contentLength() > 0) {
            copy(in, body, head.contentLength());
        }
        return body.toByteArray();
    }

    private static void copy(InputStream in, OutputStream out, long n) throws IOException {
        byte[] buf = new byte[64 * 1024];
        long left = n;
        while (left > 0) {
            int r = in.read(buf, 0, (int) Math.min(buf.length, left));
            if (r < 0) {
                throw new IOException("connection closed with " + left + " body bytes missing");
            }
            out.write(buf, 0, r);
            left -= r;
        }
    }

    /** Copies a chunked body verbatim, its framing and trailers included. */
    private static void copyChunked(InputStream in, OutputStream out) throws IOException {
        while (true) {
            String sizeLine = readLine(in);
            out.write((sizeLine + "\r\n").getBytes(StandardCharsets.US_ASCII));
            int semi = sizeLine.indexOf(';');
            long size =
                    Long.parseLong((semi < 0 ? sizeLine : sizeLine.substring(0, semi)).trim(), 16);
            if (size == 0) {
                String trailer;
                do {
                    trailer = readLine(in);
                    out.write((trailer + "\r\n").getBytes(StandardCharsets.US_ASCII));
                } while (!trailer.isEmpty());
                return;
            }
            copy(in, out, size + 2); // the chunk and its CRLF
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\n') {
                int len = sb.length();
                return len > 0 && sb.charAt(len - 1) == '\r'
                        ? sb.substring(0, len - 1)
                        : sb.toString();
            }
            sb.append((char) c);
        }
        throw new IOException("connection closed inside a line");
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(Closeable c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // closing
        }
    }

    /** A request or response head: its first line, headers (names lower case) and raw bytes. */
    private static final class Head {
        final String firstLine;
        final String statusOrTarget;
        final Map<String, String> headers;
        final byte[] raw;

        private Head(String firstLine, Map<String, String> headers, byte[] raw) {
            this.firstLine = firstLine;
            String[] parts = firstLine.split(" ", 3);
            // a request: METHOD TARGET VERSION; a response: VERSION STATUS REASON
            this.statusOrTarget = parts.length > 1 ? parts[1] : "";
            this.headers = headers;
            this.raw = raw;
        }

        /** The head up to its blank line; null when the stream ends before any byte. */
        static Head read(InputStream in) throws IOException {
            ByteArrayOutputStream raw = new ByteArrayOutputStream();
            List<String> lines = new ArrayList<>();
            StringBuilder line = new StringBuilder();
            int c;
            while (true) {
                c = in.read();
                if (c < 0) {
                    if (raw.size() == 0) {
                        return null;
                    }
                    throw new IOException("connection closed inside a head");
                }
                raw.write(c);
                if (c == '\n') {
                    int len = line.length();
                    String l =
                            len > 0 && line.charAt(len - 1) == '\r'
                                    ? line.substring(0, len - 1)
                                    : line.toString();
                    line.setLength(0);
                    if (l.isEmpty()) {
                        if (lines.isEmpty()) {
                            continue; // a stray CRLF between messages
                        }
                        break;
                    }
                    lines.add(l);
                } else {
                    line.append((char) c);
                }
            }
            Map<String, String> headers = new TreeMap<>();
            for (String h : lines.subList(1, lines.size())) {
                int colon = h.indexOf(':');
                if (colon > 0) {
                    headers.put(
                            h.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                            h.substring(colon + 1).trim());
                }
            }
            return new Head(lines.get(0), headers, raw.toByteArray());
        }

        String method() {
            return firstLine.split(" ", 2)[0];
        }

        String target() {
            return statusOrTarget;
        }

        boolean chunked() {
            String te = headers.get("transfer-encoding");
            return te != null && te.toLowerCase(Locale.ROOT).contains("chunked");
        }

        long contentLength() {
            String cl = headers.get("content-length");
            return cl == null ? -1 : Long.parseLong(cl.trim());
        }
    }
}
