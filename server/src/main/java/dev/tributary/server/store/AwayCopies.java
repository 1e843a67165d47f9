package dev.tributary.server.store;

import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.store.MetadataLog;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Copies on this server whose replicas moved to other servers (bucket groups, or single buckets),
 * and when each may be deleted: once {@code after} passed since the move away applied, and once
 * this server applied every metadata change its log held then. A restarting server applies the
 * metadata it applied before once more, a move away and a later move back included; the copy it
 * holds now must survive that replay, however long it takes. Not thread safe: its owner's lock
 * guards it.
 *
 * @param <K> what a copy is named by
 */
final class AwayCopies<K> {
    /**
     * When the copy's replicas moved away (store clock), and the metadata log's last index then.
     */
    private record Away(long atMillis, long logIndex) {}

    private final MetadataLog metadata;
    private final Clock clock;
    private final Map<K, Away> away = new HashMap<>();

    AwayCopies(MetadataLog metadata, Clock clock) {
        this.metadata = metadata;
        this.clock = clock;
    }

    boolean contains(K copy) {
        return away.containsKey(copy);
    }

    /** Notes that {@code copy}'s replicas moved away now, unless noted already. */
    void movedAway(K copy) {
        away.computeIfAbsent(
                copy, k -> new Away(clock.currentTimeMillis(), lastLogIndex(metadata)));
    }

    /**
     * Forgets {@code copy}: its replicas came back, or it is gone otherwise.
     *
     * @return whether it was noted as away
     */
    boolean forget(K copy) {
        return away.remove(copy) != null;
    }

    void forgetIf(Predicate<K> which) {
        away.keySet().removeIf(which);
    }

    /**
     * Hands each copy whose deletion is due to {@code delete} and forgets it; a copy whose {@code
     * delete} throws stays noted, and the exception propagates.
     */
    void removeDue(Duration after, Consumer<K> delete) {
        long now = clock.currentTimeMillis();
        long appliedIndex = metadata.appliedIndex();
        away.entrySet()
                .removeIf(
                        e -> {
                            Away a = e.getValue();
                            if (now - a.atMillis() < after.toMillis()
                                    || appliedIndex < a.logIndex()) {
                                return false;
                            }
                            delete.accept(e.getKey());
                            return true;
                        });
    }

    /** The metadata log's last index; the largest long when it cannot be known now. */
    static long lastLogIndex(MetadataLog metadata) {
        try {
            return metadata.lastLogIndex();
        } catch (RuntimeException e) {
            // the metadata server is stopping: unknown, so the copy stays (a restart looks again)
            return Long.MAX_VALUE;
        }
    }
}
