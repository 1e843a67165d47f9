package dev.tributary.lake.paimon;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataFilePathFactory;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;

/**
 * The data files a writer's commit message adds, as opposed to files it only names. A round that
 * compacts (a deletion-vector table, T48) may move a committed file to a higher level without
 * rewriting it: the file is then in the message's compaction inputs and outputs under its own, live
 * name. Paimon's own abort deletes every compaction output, so aborting such a round with it would
 * delete a committed file; {@link #delete} deletes only what the message wrote.
 */
final class PaimonWrittenFiles {
    private PaimonWrittenFiles() {}

    /**
     * Files written for {@code m}: new files, changelogs, compaction outputs that are not moves.
     */
    static List<DataFileMeta> of(CommitMessageImpl m) {
        Set<String> inputs =
                m.compactIncrement().compactBefore().stream()
                        .map(DataFileMeta::fileName)
                        .collect(Collectors.toSet());
        Map<String, DataFileMeta> out = new LinkedHashMap<>();
        m.newFilesIncrement().newFiles().forEach(f -> out.putIfAbsent(f.fileName(), f));
        m.newFilesIncrement().changelogFiles().forEach(f -> out.putIfAbsent(f.fileName(), f));
        for (DataFileMeta f : m.compactIncrement().compactAfter()) {
            if (!inputs.contains(f.fileName())) {
                out.putIfAbsent(f.fileName(), f);
            }
        }
        m.compactIncrement().changelogFiles().forEach(f -> out.putIfAbsent(f.fileName(), f));
        return new ArrayList<>(out.values());
    }

    /**
     * Names of the files {@code m} leaves at level 0 once committed: its new files and compaction
     * outputs at level 0 that its own compaction did not take as inputs.
     */
    static List<String> levelZeroAfter(CommitMessageImpl m) {
        Set<String> inputs =
                m.compactIncrement().compactBefore().stream()
                        .map(DataFileMeta::fileName)
                        .collect(Collectors.toSet());
        List<String> out = new ArrayList<>();
        for (DataFileMeta f : m.newFilesIncrement().newFiles()) {
            if (f.level() == 0 && !inputs.contains(f.fileName())) {
                out.add(f.fileName());
            }
        }
        for (DataFileMeta f : m.compactIncrement().compactAfter()) {
            if (f.level() == 0 && !inputs.contains(f.fileName())) {
                out.add(f.fileName());
            }
        }
        return out;
    }

    /** Deletes, quietly, the files {@code messages} wrote ({@link #of}); never a moved file. */
    static void delete(FileStoreTable table, List<CommitMessage> messages) {
        for (CommitMessage m : messages) {
            CommitMessageImpl msg = (CommitMessageImpl) m;
            DataFilePathFactory paths =
                    table.store()
                            .pathFactory()
                            .createDataFilePathFactory(msg.partition(), msg.bucket());
            for (DataFileMeta f : of(msg)) {
                table.fileIO().deleteQuietly(paths.toPath(f));
            }
        }
    }
}
