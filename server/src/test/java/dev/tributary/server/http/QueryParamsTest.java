package dev.tributary.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidInputException;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QueryParamsTest {
    private static final Set<String> TABLE = Set.of("table");

    @Test
    void t28DecodesKnownParameters() {
        assertThat(QueryParams.parse(null, "/x", TABLE)).isEmpty();
        assertThat(QueryParams.parse("", "/x", TABLE)).isEmpty();
        assertThat(QueryParams.parse("table=db.a%20b", "/x", TABLE))
                .isEqualTo(Map.of("table", "db.a b"));
        assertThat(QueryParams.parse("table", "/x", TABLE)).isEqualTo(Map.of("table", ""));
        assertThat(QueryParams.parse("&table=db.t&", "/x", TABLE))
                .isEqualTo(Map.of("table", "db.t"));
    }

    @Test
    void t28RejectsUnknownRepeatedAndBadlyEncodedParameters() {
        assertThatThrownBy(() -> QueryParams.parse("tabel=db.t", "/api/x", TABLE))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("'tabel'")
                .hasMessageContaining("/api/x")
                .hasMessageContaining("table");
        assertThatThrownBy(() -> QueryParams.parse("table=a&table=b", "/api/x", TABLE))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("twice");
        assertThatThrownBy(() -> QueryParams.parse("table=%zz", "/api/x", TABLE))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("badly encoded");
    }
}
