package dev.tributary.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.cli.output.TieringText;
import dev.tributary.client.admin.PkDeletes;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.common.id.TablePath;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** What {@code tributary tiering status} prints about how PK tables retract lake rows (T48). */
class TieringStatusRowDeletesTest {

    private static TableTieringStatus table(String name, Optional<PkDeletes> d) {
        return new TableTieringStatus(
                1,
                TablePath.of("shop", name),
                "SCHEDULED",
                3_000_000_013L,
                -1,
                Optional.empty(),
                OptionalLong.of(0),
                OptionalLong.of(0),
                Optional.empty(),
                0,
                Optional.empty(),
                10_000,
                0,
                Optional.empty(),
                0,
                List.of(),
                List.of(),
                0,
                List.of(),
                Optional.empty(),
                d);
    }

    private static PkDeletes index(int indexed, int buckets, long snapshot, int atSnapshot) {
        return new PkDeletes(
                "position",
                Optional.of(PkDeletes.STORE_INDEX),
                buckets,
                indexed,
                indexed == 0 ? OptionalLong.empty() : OptionalLong.of(snapshot),
                atSnapshot,
                true);
    }

    @Test
    void t48_eachModeAndHowMuchOfTheTableTheStoreIndexDescribes() {
        assertThat(TieringText.rowDeletes(index(3, 4, 12, 3)))
                .isEqualTo(
                        "row deletes: by position (deletion vectors), store index 3/4 buckets at"
                                + " lake snapshot 12; others read the lake");
        assertThat(TieringText.rowDeletes(index(4, 4, 12, 4)))
                .isEqualTo(
                        "row deletes: by position (deletion vectors), store index 4/4 buckets at"
                                + " lake snapshot 12");
        assertThat(TieringText.rowDeletes(index(4, 4, 12, 3)))
                .endsWith(
                        "store index 4/4 buckets at lake snapshot 12 (3 of them; 1 at older snapshots)");
        assertThat(TieringText.rowDeletes(index(0, 4, -1, 0)))
                .endsWith(
                        "store index 0/4 buckets; rounds read the lake until their lookups build it");
        assertThat(
                        TieringText.rowDeletes(
                                new PkDeletes(
                                        "position",
                                        Optional.of(PkDeletes.STORE_INDEX),
                                        4,
                                        0,
                                        OptionalLong.empty(),
                                        0,
                                        false)))
                .contains("store index not opened since the server started")
                .endsWith("until then rounds read the lake");
        assertThat(
                        TieringText.rowDeletes(
                                new PkDeletes(
                                        "position",
                                        Optional.of(PkDeletes.PAIMON),
                                        4,
                                        0,
                                        OptionalLong.empty(),
                                        0,
                                        false)))
                .isEqualTo("row deletes: by position (deletion vectors kept by Paimon)");
        assertThat(
                        TieringText.rowDeletes(
                                new PkDeletes(
                                        "equality",
                                        Optional.empty(),
                                        4,
                                        0,
                                        OptionalLong.empty(),
                                        0,
                                        false)))
                .isEqualTo("row deletes: by key (equality deletes)");
    }

    @Test
    void t48_oneLinePerPrimaryKeyTableNoneForLogTables() {
        StringWriter text = new StringWriter();
        TieringCommand.Status.printRowDeletes(
                new PrintWriter(text, true),
                List.of(
                        table("clicks", Optional.empty()),
                        table("orders", Optional.of(index(3, 4, 12, 3)))));
        assertThat(text.toString())
                .doesNotContain("shop.clicks")
                .contains(
                        "shop.orders: row deletes: by position (deletion vectors), store index 3/4"
                                + " buckets at lake snapshot 12; others read the lake");

        StringWriter none = new StringWriter();
        TieringCommand.Status.printRowDeletes(
                new PrintWriter(none, true), List.of(table("clicks", Optional.empty())));
        assertThat(none.toString()).isEmpty();
    }
}
