package dev.tributary.common.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/** Loopback ports for tests that must name a port before the process that binds it starts. */
public final class LoopbackPorts {
    private static final int FIRST = 20_000;
    private static final int COUNT = 12_000;

    private LoopbackPorts() {}

    /**
     * A loopback port free now and below the kernel's ephemeral range (32768 up on Linux). A port
     * the kernel hands out ({@code new ServerSocket(0)}) can be taken as the local port of some
     * outgoing connection before its server binds it; a Raft voter that cannot bind its port has
     * Ratis exit the whole JVM (seen in CI). Which port is chosen does not matter to any test, so
     * the choice is not seeded.
     */
    public static int free() {
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = FIRST + ThreadLocalRandom.current().nextInt(COUNT);
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                return port;
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IllegalStateException(
                "no free loopback port in "
                        + FIRST
                        + "-"
                        + (FIRST + COUNT - 1)
                        + " after 200 tries");
    }
}
