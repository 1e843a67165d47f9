package dev.tributary.client.admin;

import java.util.List;
import java.util.Optional;

/**
 * Every lake-enabled table's tiering status plus the coordinator's queue length and live jobs.
 *
 * @param lake where the lake tables live; null from a server that does not say
 */
public record TieringOverview(
        List<TableTieringStatus> tables, int queueLength, int liveJobs, LakeLocation lake) {

    /** Where the lake tables live, if the server said. */
    public Optional<LakeLocation> lakeLocation() {
        return Optional.ofNullable(lake);
    }

    /**
     * The server's lake as status shows it (T46): other engines find the tables through {@code
     * catalog}; no credential is ever part of it.
     *
     * @param format {@code paimon} or {@code iceberg}
     * @param catalog the catalog kind and its URI, e.g. {@code rest http://catalog:8181/}
     * @param warehouse e.g. {@code s3://bucket/warehouse}
     */
    public record LakeLocation(String format, String catalog, String warehouse) {}
}
