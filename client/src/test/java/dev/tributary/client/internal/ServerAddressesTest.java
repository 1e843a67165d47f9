package dev.tributary.client.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidInputException;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ServerAddressesTest {

    @Test
    void aListKeepsItsOrderDropsDuplicatesAndTakesIpv6InBrackets() {
        ServerAddresses a = ServerAddresses.parse(" h1:9123, 10.0.0.2:9124 ,[::1]:9125,h1:9123");
        assertThat(a.all())
                .containsExactly(
                        new ServerAddresses.HostPort("h1", 9123),
                        new ServerAddresses.HostPort("10.0.0.2", 9124),
                        new ServerAddresses.HostPort("::1", 9125));
        assertThat(a.first().toString()).isEqualTo("h1:9123");
        assertThat(a).hasToString("h1:9123,10.0.0.2:9124,[::1]:9125");
        assertThat(ServerAddresses.parse(a.toString())).isEqualTo(a);
    }

    @Test
    void aMalformedEntryIsNamedWithWhatIsExpected() {
        for (String bad :
                new String[] {
                    "h1",
                    "h1:",
                    ":9123",
                    "h1:0",
                    "h1:65536",
                    "h1:x",
                    "::1:9123",
                    "[::1]9123",
                    "h1:9123,",
                    "h 1:9123",
                    "dns:///h1:9123"
                }) {
            assertThatThrownBy(() -> ServerAddresses.parse(bad))
                    .as(bad)
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("is not host:port")
                    .hasMessageContaining("separate several with commas");
        }
        assertThatThrownBy(() -> ServerAddresses.parse(" "))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("no server address");
    }

    @Test
    void theListIsBounded() {
        String many =
                IntStream.rangeClosed(1, ServerAddresses.MAX_ADDRESSES + 1)
                        .mapToObj(i -> "h" + i + ":9123")
                        .collect(Collectors.joining(","));
        assertThatThrownBy(() -> ServerAddresses.parse(many))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("too many server addresses (65)");
    }

    @Test
    void aListTargetCarriesEveryAddressThroughTheUri() throws Exception {
        ServerAddresses a = ServerAddresses.parse("h1:1,[::1]:2");
        java.net.URI uri = new java.net.URI(ServerListResolver.target(a));
        assertThat(uri.getScheme()).isEqualTo(ServerListResolver.SCHEME);
        assertThat(ServerAddresses.parse(uri.getPath().substring(1))).isEqualTo(a);
    }
}
