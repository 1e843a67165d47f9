package dev.tributary.tiering.event;

import org.apache.flink.api.connector.source.SourceEvent;

/** Enumerator -> reader: stop working on a round, either keeping or discarding progress. */
public record RoundControlEvent(Kind kind, long tableId, long epoch, long roundId)
        implements SourceEvent {

    /** What the reader does with its split of the round. */
    public enum Kind {
        /**
         * The round ran for its table's freshness (T13): a log split stops where it is and reports
         * what it wrote; a snapshot split keeps running (T14).
         */
        FORCE_FINISH,
        /** The round failed or went stale: abort the writer and drop the split. */
        ABORT
    }
}
