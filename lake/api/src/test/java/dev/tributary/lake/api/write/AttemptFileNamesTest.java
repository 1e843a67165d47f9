package dev.tributary.lake.api.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.lake.api.commit.OrphanPolicy;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AttemptFileNamesTest {

    @Test
    void T23_theAttemptIsReadBackFromFileNamesOfBothFormats() {
        String tag = AttemptFileNames.tag(12, 3_000_000_005L);
        // Paimon: <prefix><uuid>-<n>.parquet with the tag in the prefix
        assertThat(AttemptFileNames.parse("/w/db.db/t/bucket-0/data-" + tag + "-9f1c-0.parquet"))
                .contains(new AttemptFileNames.Attempt(12, 3_000_000_005L));
        // Iceberg: <partition>-<task>-<operation id>-<n>.parquet with the tag in the operation id
        assertThat(AttemptFileNames.parse("00003-7-" + tag + "-ab12-00001.parquet"))
                .contains(new AttemptFileNames.Attempt(12, 3_000_000_005L));
    }

    @Test
    void T23_filesOfOtherWritersCarryNoAttempt() {
        assertThat(AttemptFileNames.parse("data-1b2c-0.parquet")).isEmpty();
        assertThat(AttemptFileNames.parse("00001-1-xtributary-t1-e2-00001.parquet")).isEmpty();
        assertThat(AttemptFileNames.parse("data-tributary-t1-e99999999999999999999-0.orc"))
                .isEmpty();
    }

    @Test
    void T23_deadAttemptsOfTheTableAreDeletableAtOnceOthersOnlyAfterTheGracePeriod() {
        OrphanPolicy p = new OrphanPolicy(Instant.ofEpochMilli(1_000), 12, 7);
        assertThat(p.deletable("data-" + AttemptFileNames.tag(12, 7) + "-x.parquet", 5_000))
                .isTrue();
        assertThat(p.deletable("data-" + AttemptFileNames.tag(12, 8) + "-x.parquet", 5_000))
                .isFalse();
        assertThat(p.deletable("data-" + AttemptFileNames.tag(13, 1) + "-x.parquet", 5_000))
                .isFalse();
        assertThat(p.deletable("data-foreign.parquet", 5_000)).isFalse();
        assertThat(p.deletable("data-foreign.parquet", 999)).isTrue();
    }

    @Test
    void T23_filesOfDeadMaintenanceGrantsAreDeletableAtOnceAndNeverTakenForAnAttempt() {
        String tag = AttemptFileNames.maintenanceTag(12, 3_000_000_004L);
        String file = "/w/db.db/t/bucket-3/data-" + tag + "-77aa-0.parquet";
        assertThat(AttemptFileNames.parseMaintenance(file))
                .contains(new AttemptFileNames.Attempt(12, 3_000_000_004L));
        assertThat(AttemptFileNames.parse(file)).as("not a tiering attempt's file").isEmpty();
        assertThat(AttemptFileNames.parseMaintenance("data-" + AttemptFileNames.tag(12, 4)))
                .isEmpty();

        Instant graceEnd = Instant.ofEpochMilli(1_000);
        OrphanPolicy live = new OrphanPolicy(graceEnd, 12, 9_000_000_000L, 3_000_000_003L);
        assertThat(live.deletable(file, 5_000)).as("the grant may still commit").isFalse();
        OrphanPolicy over = new OrphanPolicy(graceEnd, 12, 0, 3_000_000_004L);
        assertThat(over.deletable(file, 5_000)).isTrue();
        assertThat(over.deletable(file.replace("t12", "t13"), 5_000))
                .as("another table's grant")
                .isFalse();
        assertThat(new OrphanPolicy(graceEnd, 12, 7).deletable(file, 5_000))
                .as("a tiering-only policy knows no dead grant")
                .isFalse();
    }
}
