package dev.tributary.coordinator.spi;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import java.util.Map;
import java.util.SortedMap;

/**
 * One fenced lake commit, as handed to {@link LakeCommitStep#commit}. The coordinator has already
 * checked that this attempt is the table's current one and holds the table until the step returns.
 *
 * @param tableId the table id
 * @param path the table path
 * @param descriptor the table's current descriptor (schema, properties, format)
 * @param schemaId the table's current schema id
 * @param epoch the round's tiering epoch
 * @param roundId the round's id
 * @param roundEndOffsets per bucket written in this round, the new exclusive end offset
 * @param tieredOffsetsAfter every bucket's tiered offset once this commit lands (previous record
 *     merged with {@code roundEndOffsets})
 * @param committable the job's opaque lake committable (format-specific, produced by the lake
 *     plugin's writers and committable serializer)
 * @param snapshotProperties properties the lake snapshot must carry so that the lake alone can
 *     rebuild the record (T21); see {@code TieringSnapshotProperties}
 */
public record LakeCommitRequest(
        long tableId,
        TablePath path,
        TableDescriptor descriptor,
        int schemaId,
        long epoch,
        long roundId,
        SortedMap<Integer, Long> roundEndOffsets,
        SortedMap<Integer, Long> tieredOffsetsAfter,
        byte[] committable,
        Map<String, String> snapshotProperties) {}
