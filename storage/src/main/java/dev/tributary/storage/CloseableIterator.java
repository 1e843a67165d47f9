package dev.tributary.storage;

import java.util.Iterator;
import java.util.function.Function;

/**
 * An iterator over resources that must be released; use it in try-with-resources.
 *
 * @param <T> the element type
 */
public interface CloseableIterator<T> extends Iterator<T>, AutoCloseable {
    @Override
    void close();

    /** This iterator with {@code f} applied to each element; closing it closes this one. */
    default <R> CloseableIterator<R> map(Function<? super T, ? extends R> f) {
        CloseableIterator<T> source = this;
        return new CloseableIterator<>() {
            @Override
            public boolean hasNext() {
                return source.hasNext();
            }

            @Override
            public R next() {
                return f.apply(source.next());
            }

            @Override
            public void close() {
                source.close();
            }
        };
    }
}
