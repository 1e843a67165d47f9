package dev.tributary.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.client.admin.ClusterInfo;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** What `tributary cluster` prints of the replication health (T50, T51). */
class ClusterCommandTest {

    private static String printed(ClusterInfo.Replication r) {
        ClusterInfo info =
                new ClusterInfo(
                        "c1",
                        OptionalInt.of(1),
                        List.of(
                                new ClusterInfo.Server(
                                        1,
                                        "127.0.0.1:9123",
                                        "",
                                        0,
                                        true,
                                        false,
                                        false,
                                        ClusterInfo.Liveness.ALIVE,
                                        OptionalLong.of(5),
                                        6,
                                        6)),
                        OptionalLong.of(3),
                        OptionalInt.of(1),
                        Optional.of(r));
        StringWriter s = new StringWriter();
        ClusterCommand.print(new PrintWriter(s, true), info);
        return s.toString();
    }

    @Test
    void aHealthyClusterPrintsOnlyTheThreeCounts() {
        String out = printed(new ClusterInfo.Replication(6, 0, 0, 0, 0));
        assertThat(out)
                .contains("buckets: 6   under-replicated: 0   without a leader: 0\n")
                .doesNotContain("moving")
                .doesNotContain("preferred")
                .doesNotContain("table describe");
    }

    @Test
    void movingBucketsLeadersOffTheirPreferredReplicaAndLaggingReplicasAreNamed() {
        String out = printed(new ClusterInfo.Replication(6, 1, 0, 2, 3));
        assertThat(out)
                .contains(
                        "buckets: 6   under-replicated: 1   without a leader: 0   moving: 2"
                                + "   not on their preferred leader: 3"
                                + "   (tributary table describe <table> names them)");
    }
}
