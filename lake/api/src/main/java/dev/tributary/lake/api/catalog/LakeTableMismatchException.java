package dev.tributary.lake.api.catalog;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TablePath;
import java.util.List;

/**
 * The lake table no longer matches its Tributary table, typically because someone changed it with
 * another engine. Retrying does not help: restore the lake table or drop it (Tributary re-creates
 * it on the next round). The message names the table and each difference.
 */
public class LakeTableMismatchException extends InvalidInputException {
    private static final long serialVersionUID = 1L;

    private final TablePath tablePath;
    private final List<String> differences;

    public LakeTableMismatchException(
            String format, TablePath tablePath, List<String> differences) {
        super(
                format
                        + " lake table '"
                        + tablePath
                        + "' does not match the Tributary table (changed outside Tributary?): "
                        + String.join("; ", differences)
                        + ". Restore the lake table's schema, or drop the lake table so Tributary"
                        + " re-creates it.");
        this.tablePath = tablePath;
        this.differences = List.copyOf(differences);
    }

    public TablePath tablePath() {
        return tablePath;
    }

    /** One human-readable line per difference. */
    public List<String> differences() {
        return differences;
    }
}
