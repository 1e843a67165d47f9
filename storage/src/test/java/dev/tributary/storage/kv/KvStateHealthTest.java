package dev.tributary.storage.kv;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KvStateHealthTest {
    @Test
    void aStepDownPastTheHighWatermarkMakesACurrentStateStaleAndKeepsAFailedOneFailed() {
        assertThat(KvStateHealth.CURRENT.stale()).isEqualTo(KvStateHealth.STALE);
        assertThat(KvStateHealth.STALE.stale()).isEqualTo(KvStateHealth.STALE);
        assertThat(KvStateHealth.FAILED.stale()).isEqualTo(KvStateHealth.FAILED);
    }

    @Test
    void onlyACurrentStateNeedsNoRebuild() {
        assertThat(KvStateHealth.CURRENT.needsRebuild()).isFalse();
        assertThat(KvStateHealth.STALE.needsRebuild()).isTrue();
        assertThat(KvStateHealth.FAILED.needsRebuild()).isTrue();
    }
}
