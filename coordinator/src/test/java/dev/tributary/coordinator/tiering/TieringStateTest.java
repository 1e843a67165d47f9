package dev.tributary.coordinator.tiering;

import static dev.tributary.coordinator.tiering.TieringState.FAILED;
import static dev.tributary.coordinator.tiering.TieringState.NEW;
import static dev.tributary.coordinator.tiering.TieringState.PENDING;
import static dev.tributary.coordinator.tiering.TieringState.SCHEDULED;
import static dev.tributary.coordinator.tiering.TieringState.TIERED;
import static dev.tributary.coordinator.tiering.TieringState.TIERING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TieringStateTest {

    private static final Set<String> LEGAL =
            Set.of(
                    "NEW->SCHEDULED",
                    "TIERED->SCHEDULED",
                    "SCHEDULED->PENDING",
                    "FAILED->PENDING",
                    "TIERED->PENDING",
                    "PENDING->TIERING",
                    "TIERING->TIERED",
                    "TIERING->FAILED");

    @Test
    @DisplayName(
            "T15 every (from, to) pair: exactly the eight legal transitions pass, others throw")
    void t15EveryPair() {
        int legal = 0;
        for (TieringState from : TieringState.values()) {
            for (TieringState to : TieringState.values()) {
                String pair = from + "->" + to;
                if (LEGAL.contains(pair)) {
                    assertThat(from.transitionTo(to, 7)).as(pair).isEqualTo(to);
                    legal++;
                } else {
                    assertThat(from.canTransitionTo(to)).as(pair).isFalse();
                    assertThatThrownBy(() -> from.transitionTo(to, 7))
                            .as(pair)
                            .isInstanceOf(IllegalTransitionException.class)
                            .hasMessageContaining(from + " -> " + to)
                            .hasMessageContaining("table 7");
                }
            }
        }
        assertThat(legal).isEqualTo(LEGAL.size());
        assertThat(TieringState.values())
                .containsExactly(NEW, SCHEDULED, PENDING, TIERING, TIERED, FAILED);
    }
}
