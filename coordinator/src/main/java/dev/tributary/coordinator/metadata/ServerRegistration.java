package dev.tributary.coordinator.metadata;

import dev.tributary.common.exception.InvalidInputException;

/**
 * A server as registered in the cluster metadata (T49): where clients and other servers reach it. A
 * server writes its own registration once its coordinator metadata is open; a later one with the
 * same id (a restart, possibly on other ports) replaces it. Whether the server is alive is not
 * recorded here: liveness is the coordinator's in-memory business. Whether it is being drained is:
 * a drain (issue 23) is set by the coordinator and outlives the server's restarts, which keep it.
 *
 * @param serverId {@code cluster.server-id}, or 0 for a lone server
 * @param rpcAddress the gRPC address clients use, {@code host:port}
 * @param httpAddress the HTTP API and console address, {@code host:port}, or empty when the server
 *     runs no HTTP endpoint
 * @param registeredAtMillis wall-clock time of the registration
 * @param storageId the random id of the server's data directory (T53): another one means the server
 *     came back without its data; empty when not known (registered before storage ids)
 * @param draining whether it is being drained: new buckets and rebalances place no replica on it,
 *     and its replicas move off, until it is undrained or removed
 */
public record ServerRegistration(
        int serverId,
        String rpcAddress,
        String httpAddress,
        long registeredAtMillis,
        String storageId,
        boolean draining) {

    /** Longest address accepted, so a registration stays small in every snapshot. */
    public static final int MAX_ADDRESS_LENGTH = 300;

    /** Longest storage id accepted. */
    public static final int MAX_STORAGE_ID_LENGTH = 64;

    public ServerRegistration {
        if (serverId < 0) {
            throw new InvalidInputException("a server id is never negative: " + serverId);
        }
        checkAddress("rpc", rpcAddress, false);
        checkAddress("http", httpAddress, true);
        if (storageId == null || storageId.length() > MAX_STORAGE_ID_LENGTH) {
            throw new InvalidInputException(
                    "a server's storage id has at most " + MAX_STORAGE_ID_LENGTH + " characters");
        }
    }

    /** A registration that is not draining. */
    public ServerRegistration(
            int serverId,
            String rpcAddress,
            String httpAddress,
            long registeredAtMillis,
            String storageId) {
        this(serverId, rpcAddress, httpAddress, registeredAtMillis, storageId, false);
    }

    /** A registration whose storage id is not known. */
    public ServerRegistration(
            int serverId, String rpcAddress, String httpAddress, long registeredAtMillis) {
        this(serverId, rpcAddress, httpAddress, registeredAtMillis, "", false);
    }

    /** This registration with {@code storageId}. */
    public ServerRegistration withStorageId(String storageId) {
        return new ServerRegistration(
                serverId, rpcAddress, httpAddress, registeredAtMillis, storageId, draining);
    }

    /** This registration draining or not. */
    public ServerRegistration withDraining(boolean draining) {
        return new ServerRegistration(
                serverId, rpcAddress, httpAddress, registeredAtMillis, storageId, draining);
    }

    /** Whether this server runs an HTTP endpoint. */
    public boolean hasHttp() {
        return !httpAddress.isEmpty();
    }

    private static void checkAddress(String kind, String address, boolean mayBeEmpty) {
        if (address == null) {
            throw new InvalidInputException("a server's " + kind + " address is missing");
        }
        if (address.isEmpty() && mayBeEmpty) {
            return;
        }
        int colon = address.lastIndexOf(':');
        boolean valid =
                address.length() <= MAX_ADDRESS_LENGTH
                        && colon > 0
                        && colon < address.length() - 1
                        && address.substring(colon + 1).chars().allMatch(Character::isDigit);
        if (!valid) {
            throw new InvalidInputException(
                    "a server's "
                            + kind
                            + " address must be host:port (at most "
                            + MAX_ADDRESS_LENGTH
                            + " characters): '"
                            + address
                            + "'");
        }
    }
}
