package dev.tributary.storage.kv;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.ConfigOptions;
import java.time.Duration;

/** Options of primary-key buckets (KV state and its snapshots). */
public final class KvOptions {
    private KvOptions() {}

    public static final ConfigOption<Duration> SNAPSHOT_INTERVAL =
            ConfigOptions.key("kv.snapshot.interval")
                    .durationType()
                    .check(d -> !d.isNegative() && !d.isZero(), "must be positive")
                    .defaultValue(Duration.ofMinutes(10))
                    .withDescription(
                            "How often BucketStore.maybeSnapshot() snapshots a primary-key bucket"
                                    + " that changed since its last snapshot.");

    public static final ConfigOption<Integer> SNAPSHOT_NUM_RETAINED =
            ConfigOptions.key("kv.snapshot.num-retained")
                    .intType()
                    .check(n -> n >= 1, "at least 1")
                    .defaultValue(2)
                    .withDescription(
                            "KV snapshots kept per bucket; older ones are deleted unless leased.");

    public static final ConfigOption<Duration> LEASE_TIMEOUT =
            ConfigOptions.key("kv.snapshot.lease-timeout")
                    .durationType()
                    .check(d -> !d.isNegative() && !d.isZero(), "must be positive")
                    .defaultValue(Duration.ofMinutes(2))
                    .withDescription(
                            "A snapshot lease not renewed within this time expires and no longer"
                                    + " holds back snapshot retention.");

    public static final ConfigOption<Duration> ACKNOWLEDGEMENT_TIMEOUT =
            ConfigOptions.key("kv.replica.acknowledgement-timeout")
                    .durationType()
                    .check(d -> !d.isNegative() && !d.isZero(), "must be positive")
                    .defaultValue(Duration.ofSeconds(5))
                    .withDescription(
                            "How long the leader of a replicated primary-key bucket waits for its"
                                    + " in-sync replicas to acknowledge the writes a lookup or a"
                                    + " KV snapshot may have seen, before it answers with a"
                                    + " retriable error (a replica that slow is failing; the"
                                    + " caller retries, at a new leader if need be).");

    public static final ConfigOption<KvKeyEncoding> KEY_ENCODING =
            ConfigOptions.key("kv.key-encoding")
                    .enumType(KvKeyEncoding.class)
                    .defaultValue(KvKeyEncoding.ORDERED)
                    .withDescription(
                            "How a primary-key bucket whose KV state starts empty encodes its"
                                    + " RocksDB keys: 'ordered' (in the lake's key order, so a KV"
                                    + " snapshot arrives sorted; only for BOOLEAN, integer, STRING,"
                                    + " BYTES, DATE, TIME and TIMESTAMP keys, others fall back) or"
                                    + " 'row-codec' (the encoding before T54). A bucket restored"
                                    + " from a snapshot keeps the snapshot's encoding.");
}
