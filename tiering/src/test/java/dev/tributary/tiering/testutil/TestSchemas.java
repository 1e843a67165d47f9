package dev.tributary.tiering.testutil;

import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import java.util.List;

/** The log and primary-key schemas the end-to-end tiering tests write. */
public final class TestSchemas {
    /** id BIGINT, name STRING. */
    public static final Schema LOG =
            Schema.of(
                    List.of(
                            new Column("id", DataTypes.BIGINT(), null),
                            new Column("name", DataTypes.STRING(), null)),
                    List.of());

    /** id BIGINT (primary key), name STRING, amount INT. */
    public static final Schema PK =
            Schema.of(
                    List.of(
                            new Column("id", DataTypes.BIGINT(), null),
                            new Column("name", DataTypes.STRING(), null),
                            new Column("amount", DataTypes.INT(), null)),
                    List.of("id"));

    private TestSchemas() {}
}
