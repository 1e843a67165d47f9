package dev.tributary.flink.source;

import dev.tributary.union.BucketReadState;
import org.apache.flink.table.data.RowData;

/** A row read by a split, with the split's state right after it (what a checkpoint keeps). */
record UnionRecord(RowData row, BucketReadState stateAfter) {}
