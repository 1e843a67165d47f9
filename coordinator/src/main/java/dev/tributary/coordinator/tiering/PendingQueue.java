package dev.tributary.coordinator.tiering;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.TreeSet;

/** The pending tables of one tiering group, ordered by a {@link QueuePolicy} (T16). */
abstract class PendingQueue {

    static PendingQueue create(QueuePolicy policy) {
        return policy == QueuePolicy.FIFO ? new Fifo() : new Deadline();
    }

    abstract void add(TableTiering t);

    abstract boolean remove(TableTiering t);

    /** Removes and returns the head, or {@code null} if empty. */
    abstract TableTiering poll();

    abstract int size();

    /** Tables in hand-out order (O(n), for status). */
    abstract List<TableTiering> inOrder();

    /** Arrival order. */
    private static final class Fifo extends PendingQueue {
        private final LinkedHashMap<Long, TableTiering> entries = new LinkedHashMap<>();

        @Override
        void add(TableTiering t) {
            if (entries.putIfAbsent(t.tableId(), t) != null) {
                throw new IllegalStateException("table " + t.tableId() + " is already queued");
            }
        }

        @Override
        boolean remove(TableTiering t) {
            return entries.remove(t.tableId(), t);
        }

        @Override
        TableTiering poll() {
            var it = entries.values().iterator();
            if (!it.hasNext()) {
                return null;
            }
            TableTiering t = it.next();
            it.remove();
            return t;
        }

        @Override
        int size() {
            return entries.size();
        }

        @Override
        List<TableTiering> inOrder() {
            return new ArrayList<>(entries.values());
        }
    }

    /** Earliest {@code pendingSince + freshness} first, ties by arrival. */
    private static final class Deadline extends PendingQueue {
        private static final Comparator<TableTiering> ORDER =
                Comparator.<TableTiering>comparingLong(t -> t.queueDeadlineMillis)
                        .thenComparingLong(t -> t.pendingSeq);
        private final TreeSet<TableTiering> entries = new TreeSet<>(ORDER);

        @Override
        void add(TableTiering t) {
            if (!entries.add(t)) {
                throw new IllegalStateException("table " + t.tableId() + " is already queued");
            }
        }

        @Override
        boolean remove(TableTiering t) {
            return entries.remove(t);
        }

        @Override
        TableTiering poll() {
            return entries.pollFirst();
        }

        @Override
        int size() {
            return entries.size();
        }

        @Override
        List<TableTiering> inOrder() {
            return new ArrayList<>(entries);
        }
    }
}
