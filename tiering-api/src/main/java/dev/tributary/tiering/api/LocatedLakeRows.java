package dev.tributary.tiering.api;

/**
 * Where the live lake rows of keys are, as the server's lake row index answers (T48): per key, in
 * the order asked, the data file and the row's position in it, or a null file for a key without a
 * live lake row.
 */
public record LocatedLakeRows(String[] files, long[] positions) {
    public LocatedLakeRows {
        if (files.length != positions.length) {
            throw new IllegalArgumentException(
                    files.length + " files for " + positions.length + " positions");
        }
    }

    public int size() {
        return files.length;
    }
}
