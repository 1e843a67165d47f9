package dev.tributary.common.id;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EpochFormatTest {

    @Test
    void showsIncarnationAndCounter() {
        assertThat(EpochFormat.format(1_000_000_000L)).isEqualTo("1:0");
        assertThat(EpochFormat.format(3_000_000_013L)).isEqualTo("3:13");
        assertThat(EpochFormat.format(999_999_999L)).isEqualTo("0:999999999");
        assertThat(EpochFormat.format(0)).isEqualTo("0:0");
        assertThat(EpochFormat.format(-1)).isEqualTo("-");
        assertThat(EpochFormat.incarnation(3_000_000_013L)).isEqualTo(3);
        assertThat(EpochFormat.counter(3_000_000_013L)).isEqualTo(13);
    }
}
