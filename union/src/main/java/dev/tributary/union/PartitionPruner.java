package dev.tributary.union;

import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.record.PartitionRouter;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.read.LakePredicate;
import java.util.List;

/**
 * Decides from a read's filter which partitions can hold matching rows, so a union read plans no
 * bucket of a partition the filter rules out ({@code WHERE dt = '2026-12-01'} reads one partition).
 * Conservative: a part of the filter that reads other columns may match, so only conjuncts (and
 * whole disjunctions) over the partition columns alone prune. Exact where it prunes, because a
 * partition's rows all have its values in the partition columns.
 */
final class PartitionPruner {
    private static final PartitionPruner NONE = new PartitionPruner(null, null);

    private final PartitionRouter router;
    private final LakePredicate filter;

    private PartitionPruner(PartitionRouter router, LakePredicate filter) {
        this.router = router;
        this.filter = filter;
    }

    /** The pruner of a table's read with this filter (null: none; every partition matches). */
    static PartitionPruner of(TableDescriptor table, LakePredicate filter) {
        if (!table.isPartitioned() || filter == null) {
            return NONE;
        }
        return new PartitionPruner(PartitionRouter.of(table), filter);
    }

    /** False only when no row of the partition can satisfy the filter. */
    boolean mayMatch(PartitionSpec partition) {
        if (filter == null) {
            return true;
        }
        Row values = Row.wrap(router.values(partition));
        return mayMatch(filter, values);
    }

    private boolean mayMatch(LakePredicate p, Row values) {
        List<String> keys = router.keys();
        if (keys.containsAll(p.columns())) {
            return p.bind(keys::indexOf).test(values);
        }
        if (p instanceof LakePredicate.And and) {
            return and.children().stream().allMatch(c -> mayMatch(c, values));
        }
        if (p instanceof LakePredicate.Or or) {
            return or.children().stream().anyMatch(c -> mayMatch(c, values));
        }
        return true; // reads other columns: some row may match
    }
}
