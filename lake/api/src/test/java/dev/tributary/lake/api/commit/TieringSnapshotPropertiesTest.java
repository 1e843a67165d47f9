package dev.tributary.lake.api.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.CorruptDataException;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class TieringSnapshotPropertiesTest {

    @Test
    void T21_roundTripsThroughStringProperties() {
        TieringSnapshotProperties p =
                new TieringSnapshotProperties(
                        9,
                        12,
                        4,
                        "me",
                        new TreeMap<>(Map.of(0, 10L, 3, 7L, 1, 0L)),
                        1_700_000_000_000L,
                        Map.of("k", "v"));
        Map<String, String> props = p.toProperties();
        assertThat(props)
                .containsEntry(TieringSnapshotProperties.BUCKET_OFFSETS, "0=10,1=0,3=7")
                .containsEntry(TieringSnapshotProperties.EPOCH, "12")
                .containsEntry("tributary.x.k", "v");
        assertThat(TieringSnapshotProperties.fromProperties(props)).contains(p);
    }

    @Test
    void T21_snapshotsOfEarlierVersionsKeptTheCommitTimeAsAnExtra() {
        Map<String, String> old =
                Map.of(
                        TieringSnapshotProperties.TABLE_ID,
                        "9",
                        TieringSnapshotProperties.EPOCH,
                        "12",
                        TieringSnapshotProperties.ROUND_ID,
                        "4",
                        TieringSnapshotProperties.BUCKET_OFFSETS,
                        "0=10",
                        "tributary.x.committed-at",
                        "1234");
        TieringSnapshotProperties p = TieringSnapshotProperties.fromProperties(old).orElseThrow();
        assertThat(p.committedAtMillis()).isEqualTo(1234);
        assertThat(p.extra()).isEmpty();
    }

    @Test
    void foreignSnapshotsHaveNoProperties() {
        assertThat(TieringSnapshotProperties.fromProperties(Map.of("a", "b"))).isEmpty();
        assertThat(TieringSnapshotProperties.fromProperties(null)).isEmpty();
    }

    @Test
    void malformedPropertiesAreCorrupt() {
        assertThatThrownBy(
                        () ->
                                TieringSnapshotProperties.fromProperties(
                                        Map.of(TieringSnapshotProperties.EPOCH, "x")))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("malformed");
    }

    @Test
    void sameRoundComparesIdentity() {
        var a = TieringSnapshotProperties.of(1, 2, 3, Map.of(0, 1L));
        assertThat(a.sameRound(TieringSnapshotProperties.of(1, 2, 3, Map.of(0, 5L)))).isTrue();
        assertThat(a.sameRound(TieringSnapshotProperties.of(1, 3, 3, Map.of(0, 1L)))).isFalse();
        assertThat(a.sameRound(TieringSnapshotProperties.of(2, 2, 3, Map.of(0, 1L)))).isFalse();
    }
}
