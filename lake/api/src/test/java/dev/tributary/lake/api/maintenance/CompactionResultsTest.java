package dev.tributary.lake.api.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TablePath;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CompactionResultsTest {
    private static final TablePath PATH = TablePath.of("db", "t");

    private static LakeCompactionResult result(long grant, int bucket, byte[] payload) {
        return new LakeCompactionResult(
                "paimon", PATH, 7, grant, bucket, 5, 500, 1, 450, List.of("f" + bucket), payload);
    }

    @Test
    @DisplayName("totals count the results that rewrote something; empty ones add nothing")
    void totals() {
        CompactionResults in =
                CompactionResults.of(
                        "paimon",
                        PATH,
                        7,
                        3,
                        List.of(
                                result(3, 0, new byte[] {1}),
                                LakeCompactionResult.empty("paimon", PATH, 7, 3, 1),
                                result(3, 2, new byte[] {2})));
        assertThat(in.payloads()).containsExactly(new byte[] {1}, new byte[] {2});
        assertThat(in.committed(42))
                .isEqualTo(MaintenanceCommitResult.committed(42, 10, 2, 1000, 900));
        assertThat(CompactionResults.of("paimon", PATH, 7, 3, List.of()).isEmpty()).isTrue();
    }

    @Test
    @DisplayName("a result of another grant, table or format is refused, naming both")
    void refusesForeignResults() {
        assertThatThrownBy(
                        () ->
                                CompactionResults.of(
                                        "paimon",
                                        PATH,
                                        7,
                                        4,
                                        List.of(result(3, 0, new byte[] {1}))))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("as compaction 4 of table id 7")
                .hasMessageContaining("belongs elsewhere");
        assertThatThrownBy(
                        () ->
                                CompactionResults.of(
                                        "iceberg",
                                        PATH,
                                        7,
                                        3,
                                        List.of(result(3, 0, new byte[] {1}))))
                .isInstanceOf(InvalidInputException.class);
    }
}
