package dev.tributary.flink.source;

import dev.tributary.flink.types.RowConverter;
import dev.tributary.union.BucketReadState;
import java.util.Map;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;
import org.apache.flink.table.data.RowData;

/**
 * A union source reader: one fetcher thread reads its buckets, each split's state advances with
 * every record emitted so a checkpoint resumes right after the last one.
 */
final class UnionSourceReader
        extends SingleThreadMultiplexSourceReaderBase<
                UnionRecord, RowData, UnionSplit, UnionSourceReader.SplitState> {

    /** The mutable state of a split while it is read. */
    static final class SplitState {
        BucketReadState state;

        SplitState(BucketReadState state) {
            this.state = state;
        }
    }

    UnionSourceReader(SourceReaderContext context, UnionSourceSpec spec, RowConverter converter) {
        super(
                () -> new UnionSplitReader(spec, converter),
                (record, output, split) -> {
                    output.collect(record.row());
                    split.state = record.stateAfter();
                },
                new Configuration(),
                context);
    }

    @Override
    protected void onSplitFinished(Map<String, SplitState> finishedSplitIds) {}

    @Override
    protected SplitState initializedState(UnionSplit split) {
        return new SplitState(split.state());
    }

    @Override
    protected UnionSplit toSplitType(String splitId, SplitState state) {
        return new UnionSplit(state.state);
    }
}
