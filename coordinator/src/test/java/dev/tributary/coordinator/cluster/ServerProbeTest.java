package dev.tributary.coordinator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The probe against real sockets on loopback. */
class ServerProbeTest {

    @Test
    void aListeningPortIsListeningAClosedOneRefusesAndABadAddressTellsNothing() throws Exception {
        try (ServerProbe probe = new ServerProbe(Duration.ofSeconds(1));
                ServerSocket listening =
                        new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            int closedPort;
            try (ServerSocket gone = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
                closedPort = gone.getLocalPort();
            }
            assertThat(probe.probe("127.0.0.1:" + listening.getLocalPort()).join())
                    .isEqualTo(ServerProbe.Result.LISTENING);
            assertThat(probe.probe("127.0.0.1:" + closedPort).join())
                    .isEqualTo(ServerProbe.Result.REFUSED);
            assertThat(probe.probe("[::1]:" + closedPort).join())
                    .as("an IPv6 address in brackets; refused, or no answer without IPv6")
                    .isIn(ServerProbe.Result.REFUSED, ServerProbe.Result.NO_ANSWER);
            for (String bad : new String[] {"no-port", ":1", "127.0.0.1:x", "127.0.0.1:70000"}) {
                assertThat(probe.probe(bad).join()).as(bad).isEqualTo(ServerProbe.Result.NO_ANSWER);
            }
        }
        ServerProbe closed = new ServerProbe(Duration.ofSeconds(1));
        closed.close();
        assertThat(closed.probe("127.0.0.1:1").join()).isEqualTo(ServerProbe.Result.NO_ANSWER);
    }
}
