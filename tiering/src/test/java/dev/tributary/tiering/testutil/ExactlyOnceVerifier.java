package dev.tributary.tiering.testutil;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.TableDescriptor;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a tiered lake table against the store at the coordinator's committed offsets: for a log
 * table every (bucket, offset) below the committed offset appears exactly once with the right row;
 * for a PK table the lake equals the KV state the changelog yields up to the committed offsets.
 */
public final class ExactlyOnceVerifier {
    private ExactlyOnceVerifier() {}

    /**
     * @param log every bucket's log records in offset order
     * @param committed the committed (tiered) offset per bucket
     * @param lake the lake table's rows as the format's own reader returns them
     * @return how many lake rows were checked
     */
    public static int verify(
            Map<Integer, List<LogRecord>> log,
            Map<Integer, Long> committed,
            TablePath path,
            TableDescriptor descriptor,
            List<PaimonLakeReader.LakeRow> lake) {
        if (!descriptor.hasPrimaryKey()) {
            Map<String, Row> expected = new HashMap<>();
            for (int b = 0; b < descriptor.bucketCount(); b++) {
                long upTo = committed.getOrDefault(b, 0L);
                for (LogRecord r : log.getOrDefault(b, List.of())) {
                    if (r.offset() < upTo) {
                        expected.put(b + "@" + r.offset(), r.row());
                    }
                }
            }
            Set<String> seen = new HashSet<>();
            for (PaimonLakeReader.LakeRow r : lake) {
                String key = r.bucket() + "@" + r.offset();
                assertThat(seen.add(key))
                        .as("%s: (bucket, offset) %s is in the lake twice", path, key)
                        .isTrue();
                assertThat(expected)
                        .as("%s: lake row %s is not below the committed offsets", path, key)
                        .containsKey(key);
                assertThat(r.row()).as("%s: row at %s", path, key).isEqualTo(expected.get(key));
            }
            assertThat(seen)
                    .as("%s: every committed record is in the lake", path)
                    .isEqualTo(expected.keySet());
            return lake.size();
        }
        int[] pk = descriptor.schema().primaryKeyIndexes();
        Map<Row, Row> state = new HashMap<>();
        for (int b = 0; b < descriptor.bucketCount(); b++) {
            long upTo = committed.getOrDefault(b, 0L);
            for (LogRecord r : log.getOrDefault(b, List.of())) {
                if (r.offset() >= upTo) {
                    break;
                }
                switch (r.changeType()) {
                    case INSERT, UPDATE_AFTER -> state.put(r.row().project(pk), r.row());
                    case DELETE -> state.remove(r.row().project(pk));
                    default -> {}
                }
            }
        }
        Map<Row, Row> actual = new HashMap<>();
        for (PaimonLakeReader.LakeRow r : lake) {
            assertThat(actual.put(r.row().project(pk), r.row()))
                    .as("%s: key %s twice in the lake", path, r.row().project(pk))
                    .isNull();
        }
        assertThat(actual)
                .as("%s: lake equals the KV state at the committed offsets", path)
                .isEqualTo(state);
        return lake.size();
    }
}
