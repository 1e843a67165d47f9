package dev.tributary.storage;

import dev.tributary.common.exception.StorageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

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
     * The numbers {@code n} of the directories named {@code prefix + n} in {@code dir}, ascending;
     * none if {@code dir} is missing. Other names (a bucket being deleted, files) are skipped.
     */
    static List<Long> numberedDirectories(Path dir, String prefix) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<Long> out = new ArrayList<>();
        try (Stream<Path> children = Files.list(dir)) {
            for (Path child : children.toList()) {
                String name = child.getFileName().toString();
                if (Files.isDirectory(child) && name.startsWith(prefix)) {
                    try {
                        out.add(Long.parseLong(name.substring(prefix.length())));
                    } catch (NumberFormatException e) {
                        // not one of ours
                    }
                }
            }
        } catch (IOException e) {
            throw new StorageException("cannot list " + dir + ": " + e, e);
        }
        Collections.sort(out);
        return out;
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
