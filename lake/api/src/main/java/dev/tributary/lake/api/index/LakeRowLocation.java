package dev.tributary.lake.api.index;

import java.util.Objects;

/**
 * Where a live row of a primary-key lake table is (T48): a data file and the row's position in it
 * (0-based, counted over the file's rows as written), what a deletion vector or position delete
 * names.
 *
 * @param file the data file's full path, as the table's metadata names it
 * @param position the row's position in the file
 */
public record LakeRowLocation(String file, long position) {
    public LakeRowLocation {
        Objects.requireNonNull(file, "file");
        if (position < 0) {
            throw new IllegalArgumentException("negative row position " + position + " in " + file);
        }
    }
}
