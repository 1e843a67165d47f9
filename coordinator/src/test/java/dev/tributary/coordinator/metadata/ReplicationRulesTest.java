package dev.tributary.coordinator.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import org.junit.jupiter.api.Test;

/** T50: the replication factor a table is created with. */
class ReplicationRulesTest {
    private static final Schema PK =
            Schema.newBuilder()
                    .column("id", DataTypes.INT().notNull())
                    .column("s", DataTypes.STRING())
                    .primaryKey("id")
                    .build();

    private static TableDescriptor table(String factor) {
        TableDescriptor.Builder b = TableDescriptor.builder(PK).bucketCount(2);
        if (factor != null) {
            b.property("table.replication.factor", factor);
        }
        return b.build();
    }

    @Test
    void aTableThatDoesNotSayGetsThreeCopiesOrOnePerServerAndKeepsThem() {
        assertThat(ReplicationRules.withFactorChosen(table(null), 5).properties())
                .containsEntry("table.replication.factor", "3");
        assertThat(ReplicationRules.withFactorChosen(table(null), 2).properties())
                .containsEntry("table.replication.factor", "2");
        // a lone server: one copy, the option's default, nothing recorded
        assertThat(ReplicationRules.withFactorChosen(table(null), 1).properties())
                .doesNotContainKey("table.replication.factor");
        assertThat(ReplicationRules.withFactorChosen(table(null), 0).properties())
                .doesNotContainKey("table.replication.factor");
        // what the table says wins
        assertThat(ReplicationRules.withFactorChosen(table("1"), 5).properties())
                .containsEntry("table.replication.factor", "1");
    }

    @Test
    void primaryKeyTablesReplicateButNeverBeyondTheServers() {
        ReplicationRules.validateCreate(table("3"), 3);
        assertThatThrownBy(() -> ReplicationRules.validateCreate(table("4"), 3))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("needs 4 servers and 3 are registered");
    }
}
