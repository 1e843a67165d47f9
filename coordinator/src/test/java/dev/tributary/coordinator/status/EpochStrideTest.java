package dev.tributary.coordinator.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.EpochFormat;
import dev.tributary.coordinator.tiering.TieringManager;
import org.junit.jupiter.api.Test;

class EpochStrideTest {
    @Test
    void theReadableFormSplitsEpochsWhereTheCoordinatorMakesThem() {
        assertThat(EpochFormat.STRIDE).isEqualTo(TieringManager.EPOCH_STRIDE);
    }
}
