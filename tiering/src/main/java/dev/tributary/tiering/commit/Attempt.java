package dev.tributary.tiering.commit;

/** One tiering attempt of a table: the unit a commit is fenced on (T19). */
public record Attempt(long tableId, long epoch) {
    @Override
    public String toString() {
        return "table " + tableId + " epoch " + epoch;
    }
}
