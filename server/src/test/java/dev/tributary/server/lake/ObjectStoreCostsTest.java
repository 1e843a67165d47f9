package dev.tributary.server.lake;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.TablePath;
import dev.tributary.lake.api.io.ObjectStoreRequest;
import dev.tributary.lake.api.io.ObjectStoreRequests;
import org.junit.jupiter.api.Test;

class ObjectStoreCostsTest {
    private static final TablePath T = TablePath.of("db", "t");
    private final ObjectStoreRequests requests = ObjectStoreRequests.create();
    private final ObjectStoreCosts costs = new ObjectStoreCosts(requests);

    private void put(int n) {
        for (int i = 0; i < n; i++) {
            requests.record("b", "wh/t/data/f" + i, ObjectStoreRequest.PUT, 10, 0);
        }
    }

    @Test
    void t47_aRoundIsWhatTheTableCostBetweenTwoCommitsLessItsMaintenance() {
        requests.registerTable(T, "s3://b/wh/t");
        put(3);
        costs.roundEnded(T);
        assertThat(costs.lastRound(T).totalRequests()).isEqualTo(3);

        put(2);
        costs.maintenance(
                T,
                true,
                false,
                () -> {
                    requests.record("b", "wh/t/metadata/m", ObjectStoreRequest.GET, 0, 5);
                    return null;
                });
        costs.maintenance(
                T,
                false,
                true,
                () -> {
                    requests.record("b", "wh/t/metadata/m", ObjectStoreRequest.LIST, 0, 0);
                    return null;
                });
        costs.sweep(
                T,
                () -> {
                    requests.record("b", "wh/t", ObjectStoreRequest.LIST, 0, 0);
                    return null;
                });
        costs.roundEnded(T);

        assertThat(costs.lastRound(T).totalRequests()).isEqualTo(2);
        assertThat(costs.lastRound(T).bytesUp()).isEqualTo(20);
        assertThat(costs.lastMaintenancePass(T).totalRequests()).isEqualTo(2);
        assertThat(costs.lastMaintenancePass(T).requests(ObjectStoreRequest.LIST)).isEqualTo(1);
        assertThat(costs.roundCount(T)).isEqualTo(2);
        assertThat(costs.recentRounds(T)).hasSize(2);
        assertThat(costs.view(T))
                .containsKeys("total", "last_round", "last_maintenance_pass", "last_orphan_sweep");

        // a new pass starts from nothing
        costs.maintenance(
                T,
                true,
                true,
                () -> {
                    requests.record("b", "wh/t/x", ObjectStoreRequest.HEAD, 0, 0);
                    return null;
                });
        assertThat(costs.lastMaintenancePass(T).totalRequests()).isEqualTo(1);
    }

    @Test
    void t47_onlyTheLastRoundsAreKept() {
        requests.registerTable(T, "s3://b/wh/t");
        for (int i = 0; i < ObjectStoreCosts.RECENT_ROUNDS + 5; i++) {
            put(1);
            costs.roundEnded(T);
        }
        assertThat(costs.recentRounds(T)).hasSize(ObjectStoreCosts.RECENT_ROUNDS);
        assertThat(costs.roundCount(T)).isEqualTo(ObjectStoreCosts.RECENT_ROUNDS + 5);
    }
}
