package dev.tributary.storage;

import dev.tributary.common.exception.StorageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/** Directory and close helpers shared by the store's table and partition code. */
final class StoreFiles {
    private StoreFiles() {}

    static void createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new StorageException("cannot create " + dir + ": " + e, e);
        }
    }

    /**
     * Closes every item even when some fail, so one broken bucket does not leave the others open.
     *
     * @param first a failure from earlier closes, or null
     * @return {@code first}, or else the first failure here, with every later failure suppressed
     *     into it; null if none failed
     */
    static <T> RuntimeException closeEach(
            Iterable<T> items, Consumer<? super T> close, RuntimeException first) {
        for (T item : items) {
            try {
                close.accept(item);
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        return first;
    }
}
