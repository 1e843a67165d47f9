/**
 * Locating live rows of primary-key lake tables (T48): the store's lake row index says where each
 * key's row is ({@link dev.tributary.lake.api.index.LakeRowLocator}, for writers) and follows the
 * lake by reading the rows of new files ({@link dev.tributary.lake.api.index.LakeRowScanner}, for
 * the server).
 */
package dev.tributary.lake.api.index;
