package dev.tributary.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidConfigException;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;

/** Which host a server registers (T49). */
class AdvertisedHostTest {
    private static final AdvertisedHost.LocalHost LOCAL = () -> "10.1.2.3";

    @Test
    void aConcreteBindHostIsAdvertisedAsIs() {
        assertThat(AdvertisedHost.resolve("", "127.0.0.1", LOCAL)).isEqualTo("127.0.0.1");
        assertThat(AdvertisedHost.resolve("", "db-7.example", LOCAL)).isEqualTo("db-7.example");
    }

    @Test
    void aWildcardBindHostIsReplacedByTheMachinesAddress() {
        for (String wildcard : new String[] {"0.0.0.0", "::", "[::]", "0:0:0:0:0:0:0:0"}) {
            assertThat(AdvertisedHost.resolve("", wildcard, LOCAL))
                    .as(wildcard)
                    .isEqualTo("10.1.2.3");
        }
        assertThat(AdvertisedHost.resolve("", "0.0.0.0", () -> "fe80::1")).isEqualTo("[fe80::1]");
    }

    @Test
    void theAdvertisedHostOptionWins() {
        assertThat(AdvertisedHost.resolve("public.example", "0.0.0.0", LOCAL))
                .isEqualTo("public.example");
        assertThat(AdvertisedHost.resolve(" public.example ", "127.0.0.1", LOCAL))
                .isEqualTo("public.example");
    }

    @Test
    void wildcardsThatCannotBeResolvedAreClearErrors() {
        assertThatThrownBy(() -> AdvertisedHost.resolve("0.0.0.0", "127.0.0.1", LOCAL))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("server.advertised-host");
        assertThatThrownBy(
                        () ->
                                AdvertisedHost.resolve(
                                        "",
                                        "0.0.0.0",
                                        () -> {
                                            throw new UnknownHostException("no name");
                                        }))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("server.bind-host")
                .hasMessageContaining("server.advertised-host");
    }
}
