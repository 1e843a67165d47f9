package dev.tributary.storage;

import java.util.Iterator;

/**
 * An iterator over resources that must be released; use it in try-with-resources.
 *
 * @param <T> the element type
 */
public interface CloseableIterator<T> extends Iterator<T>, AutoCloseable {
    @Override
    void close();
}
