/**
 * The lake row index (T48): where each primary key's live row is in the table's lake copy, kept by
 * the store so tiering retracts old rows by position without reading the lake for them.
 */
package dev.tributary.storage.lakeindex;
