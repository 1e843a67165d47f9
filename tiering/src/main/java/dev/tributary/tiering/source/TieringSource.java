package dev.tributary.tiering.source;

import dev.tributary.common.config.Configuration;
import dev.tributary.tiering.service.TieringServiceFactory;
import dev.tributary.tiering.split.TieringSplit;
import java.util.Map;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The tiering job's FLIP-27 source. It emits no records: readers write lake files and report each
 * finished split to the enumerator, which requests the round's fenced commit from the coordinator.
 * Keeping the commit next to the round bookkeeping means the enumerator keeps heartbeating a table
 * until its commit is answered, and no extra channel from a commit operator back to the enumerator
 * is needed.
 */
public final class TieringSource implements Source<Void, TieringSplit, EnumeratorCheckpoint> {
    private static final long serialVersionUID = 1L;

    private final TieringServiceFactory services;
    private final Map<String, String> config;
    private final String jobId;

    /**
     * @param config tiering options and the lake settings ({@code datalake.*})
     */
    public TieringSource(TieringServiceFactory services, Map<String, String> config, String jobId) {
        this.services = services;
        this.config = Map.copyOf(config);
        this.jobId = jobId;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.CONTINUOUS_UNBOUNDED;
    }

    @Override
    public SplitEnumerator<TieringSplit, EnumeratorCheckpoint> createEnumerator(
            SplitEnumeratorContext<TieringSplit> context) {
        return new TieringSourceEnumerator(context, services, Configuration.fromMap(config), jobId);
    }

    @Override
    public SplitEnumerator<TieringSplit, EnumeratorCheckpoint> restoreEnumerator(
            SplitEnumeratorContext<TieringSplit> context, EnumeratorCheckpoint checkpoint) {
        return createEnumerator(context);
    }

    @Override
    public SimpleVersionedSerializer<TieringSplit> getSplitSerializer() {
        return TieringSplitSerializer.INSTANCE;
    }

    @Override
    public SimpleVersionedSerializer<EnumeratorCheckpoint> getEnumeratorCheckpointSerializer() {
        return new EnumeratorCheckpoint.Serializer();
    }

    @Override
    public SourceReader<Void, TieringSplit> createReader(SourceReaderContext readerContext) {
        return new TieringSourceReader(readerContext, services, Configuration.fromMap(config));
    }
}
