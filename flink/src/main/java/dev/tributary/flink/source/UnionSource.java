package dev.tributary.flink.source;

import dev.tributary.flink.types.RowConverter;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.table.data.RowData;

/**
 * The FLIP-27 source of a Tributary table: a union read (T40) split by bucket (by partition and
 * bucket for a partitioned table, T32), bounded at the end offsets taken when the query starts, or
 * following the log (and, for a partitioned table, the partitions created meanwhile).
 */
public final class UnionSource
        implements Source<RowData, UnionSplit, UnionEnumeratorState>, ResultTypeQueryable<RowData> {
    private static final long serialVersionUID = 1L;

    private final UnionSourceSpec spec;
    private final RowConverter converter;
    private final TypeInformation<RowData> producedType;

    public UnionSource(
            UnionSourceSpec spec, RowConverter converter, TypeInformation<RowData> producedType) {
        this.spec = spec;
        this.converter = converter;
        this.producedType = producedType;
    }

    @Override
    public Boundedness getBoundedness() {
        return spec.follow() ? Boundedness.CONTINUOUS_UNBOUNDED : Boundedness.BOUNDED;
    }

    @Override
    public SplitEnumerator<UnionSplit, UnionEnumeratorState> createEnumerator(
            SplitEnumeratorContext<UnionSplit> context) {
        return new UnionEnumerator(context, spec, null);
    }

    @Override
    public SplitEnumerator<UnionSplit, UnionEnumeratorState> restoreEnumerator(
            SplitEnumeratorContext<UnionSplit> context, UnionEnumeratorState checkpoint) {
        return new UnionEnumerator(context, spec, checkpoint);
    }

    @Override
    public SimpleVersionedSerializer<UnionSplit> getSplitSerializer() {
        return UnionSplitSerializer.INSTANCE;
    }

    @Override
    public SimpleVersionedSerializer<UnionEnumeratorState> getEnumeratorCheckpointSerializer() {
        return UnionEnumeratorState.Serializer.INSTANCE;
    }

    @Override
    public SourceReader<RowData, UnionSplit> createReader(SourceReaderContext readerContext) {
        return new UnionSourceReader(readerContext, spec, converter);
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return producedType;
    }
}
