package dev.tributary.server.status;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LagSeriesTest {

    @Test
    void t28RingOverwritesTheOldestAndCopiesInTimeOrderAcrossTheWrap() {
        LagSeries s = new LagSeries(3);
        for (long t = 1; t <= 5; t++) {
            s.add(t, t * 10, t * 100);
        }
        assertThat(s.size()).isEqualTo(3);
        assertThat(s.times()).containsExactly(3, 4, 5);
        assertThat(s.lagMillis()).containsExactly(30, 40, 50);
        assertThat(s.lagRecords()).containsExactly(300, 400, 500);
    }

    @Test
    void t28DropBeforeAndAfterWorkAcrossTheWrap() {
        LagSeries s = new LagSeries(4);
        for (long t = 1; t <= 6; t++) {
            s.add(t, 0, 0);
        }
        s.dropBefore(4);
        assertThat(s.times()).containsExactly(4, 5, 6);
        s.dropAfter(4);
        assertThat(s.times()).containsExactly(4);
        s.dropBefore(100);
        assertThat(s.size()).isZero();
        assertThat(s.times()).isEmpty();
        s.add(7, 1, 2);
        assertThat(s.times()).containsExactly(7);
    }
}
