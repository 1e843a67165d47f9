package dev.tributary.common.exception;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class ThrowablesTest {
    @Test
    void findsTheTypeItselfOrAnywhereAmongTheCauses() {
        IOException io = new IOException("reset");
        RuntimeException wrapped = new RuntimeException(new UncheckedIOException(io));
        assertThat(Throwables.causedBy(io, IOException.class)).isTrue();
        assertThat(Throwables.causedBy(wrapped, IOException.class)).isTrue();
        assertThat(Throwables.causedBy(wrapped, NotCoordinatorException.class)).isFalse();
        assertThat(Throwables.causedBy(null, IOException.class)).isFalse();
    }

    @Test
    void aCauseCycleEnds() {
        RuntimeException a = new RuntimeException("a");
        RuntimeException b = new RuntimeException("b", a);
        a.initCause(b);
        assertThat(Throwables.causedBy(a, IOException.class)).isFalse();
    }
}
