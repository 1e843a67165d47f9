package dev.tributary.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.InvalidConfigException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClusterConfigTest {
    private static Configuration conf(Map<String, String> values) {
        return Configuration.fromMap(values);
    }

    @Test
    void noClusterIdMeansTheSingleServer() {
        assertThat(ClusterConfig.from(new Configuration())).isEmpty();
        assertThatThrownBy(
                        () ->
                                ClusterConfig.from(
                                        conf(Map.of("cluster.voters", "1@127.0.0.1:9301"))))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("cluster.id");
    }

    @Test
    void parsesVotersAndDefaults() {
        ClusterConfig c =
                ClusterConfig.from(
                                conf(
                                        Map.of(
                                                "cluster.id", "prod",
                                                "cluster.server-id", "2",
                                                "cluster.voters",
                                                        " 1@127.0.0.1:9301, 2@host-b:9302 ,3@[::1]:9303")))
                        .orElseThrow();
        assertThat(c.clusterId()).isEqualTo("prod");
        assertThat(c.voters())
                .containsExactly(
                        new ClusterConfig.Voter(1, "127.0.0.1", 9301),
                        new ClusterConfig.Voter(2, "host-b", 9302),
                        new ClusterConfig.Voter(3, "::1", 9303));
        assertThat(c.self().address()).isEqualTo("host-b:9302");
        assertThat(c.voters().get(2).address()).isEqualTo("[::1]:9303");
        assertThat(c.electionTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(c.requestTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.snapshotThreshold()).isEqualTo(10_000);
        assertThat(RaftSettings.groupId("prod"))
                .isEqualTo(RaftSettings.groupId("prod"))
                .isNotEqualTo(RaftSettings.groupId("test"));
    }

    @Test
    void refusesBadVoterLists() {
        assertInvalid("1@127.0.0.1:9301,2@127.0.0.1", "2@127.0.0.1", "id@host:raftPort");
        assertInvalid("1@127.0.0.1:9301,x@h:9302", "x@h:9302", "not a number");
        assertInvalid("1@127.0.0.1:9301,2@h:70000", "2@h:70000", "between 1 and 65535");
        assertInvalid("1@127.0.0.1:9301,@h:1", "@h:1", "id@host:raftPort");
        assertInvalid("1@127.0.0.1:9301,", "''", "id@host:raftPort");
        assertInvalid("1@a:9301,1@b:9302", "1@a:9301,1@b:9302", "id 1 is used twice");
        assertInvalid("1@a:9301,2@A:9301", "1@a:9301,2@A:9301", "address A:9301 is used twice");
    }

    private static void assertInvalid(String voters, String quoted, String why) {
        String expectedValue = quoted.equals("''") ? "invalid value ''" : quoted;
        assertThatThrownBy(
                        () ->
                                ClusterConfig.from(
                                        conf(
                                                Map.of(
                                                        "cluster.id", "c",
                                                        "cluster.server-id", "1",
                                                        "cluster.voters", voters))))
                .as(voters)
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("cluster.voters")
                .hasMessageContaining(expectedValue)
                .hasMessageContaining(why);
    }

    @Test
    void anObserverHasItsOwnIdAndAddressOutsideTheVoters() {
        ClusterConfig c =
                ClusterConfig.from(
                                conf(
                                        Map.of(
                                                "cluster.id", "c",
                                                "cluster.server-id", "4",
                                                "cluster.voters", "1@a:1,2@b:2,3@c:3",
                                                "cluster.observer-address", "d:4")))
                        .orElseThrow();
        assertThat(c.isObserver()).isTrue();
        assertThat(c.self()).isEqualTo(new ClusterConfig.Voter(4, "d", 4));
        assertThat(c.voters()).hasSize(3);

        for (Map.Entry<String, String> clash :
                Map.of("1", "d:4", "4", "B:2", "5", "d", "6", "d:x").entrySet()) {
            assertThatThrownBy(
                            () ->
                                    ClusterConfig.from(
                                            conf(
                                                    Map.of(
                                                            "cluster.id",
                                                            "c",
                                                            "cluster.server-id",
                                                            clash.getKey(),
                                                            "cluster.voters",
                                                            "1@a:1,2@b:2",
                                                            "cluster.observer-address",
                                                            clash.getValue()))))
                    .as(clash.toString())
                    .isInstanceOf(InvalidConfigException.class)
                    .hasMessageContaining("cluster.observer-address");
        }
    }

    @Test
    void refusesAMissingOrUnknownServerIdAndMissingVoters() {
        assertThatThrownBy(() -> ClusterConfig.from(conf(Map.of("cluster.id", "c"))))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("cluster.voters")
                .hasMessageContaining("id@host:raftPort");
        assertThatThrownBy(
                        () ->
                                ClusterConfig.from(
                                        conf(
                                                Map.of(
                                                        "cluster.id", "c",
                                                        "cluster.voters", "1@a:1,2@b:2"))))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("cluster.server-id")
                .hasMessageContaining("is not set");
        assertThatThrownBy(
                        () ->
                                ClusterConfig.from(
                                        conf(
                                                Map.of(
                                                        "cluster.id", "c",
                                                        "cluster.server-id", "3",
                                                        "cluster.voters", "1@a:1,2@b:2"))))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("'cluster.server-id' is 3, which is not among")
                .hasMessageContaining("cluster.observer-address");
        assertThatThrownBy(
                        () ->
                                ClusterConfig.from(
                                        conf(
                                                Map.of(
                                                        "cluster.id", "c",
                                                        "cluster.server-id", "1",
                                                        "cluster.voters", "1@a:1",
                                                        "cluster.election-timeout", "10ms"))))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("cluster.election-timeout")
                .hasMessageContaining("at least 100ms");
    }
}
