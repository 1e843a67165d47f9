package dev.tributary.lake.iceberg;

import dev.tributary.common.config.Secrets;
import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.lake.api.LakeStorageOptions;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;

/**
 * The Iceberg catalog properties Tributary opens a warehouse with, and what changes when the
 * warehouse is on object storage (T45): Iceberg's {@code S3FileIO} is the default file IO for an S3
 * warehouse, and the Hadoop catalog is refused there because it commits by renaming a file, which
 * an object store does not do atomically (two commits could both win, one silently lost).
 */
final class IcebergObjectStores {
    /** Iceberg's S3 file IO, in the distribution. */
    static final String S3_FILE_IO = "org.apache.iceberg.aws.s3.S3FileIO";

    /** Schemes Iceberg's {@code S3FileIO} reads and writes. */
    private static final Set<String> S3_SCHEMES = Set.of("s3", "s3a", "s3n");

    /** Object stores: no atomic rename, so no Hadoop catalog. */
    private static final Set<String> OBJECT_STORE_SCHEMES =
            Set.of("s3", "s3a", "s3n", "gs", "abfs", "abfss", "wasb", "wasbs", "oss");

    private static final String HADOOP_CATALOG_IMPL = "org.apache.iceberg.hadoop.HadoopCatalog";

    private IcebergObjectStores() {}

    /**
     * The properties for {@code CatalogUtil.buildIcebergCatalog}: the user's options passed
     * through, the warehouse, the Hadoop catalog when no catalog is named, and S3FileIO for an S3
     * warehouse without an {@code io-impl}.
     *
     * @param warehouse the configured warehouse; a local path is made a {@code file:} URI, except
     *     for a REST catalog, where the warehouse may name a catalog of the server (Polaris)
     * @throws InvalidConfigException for the Hadoop catalog on an object store
     */
    static Map<String, String> catalogProperties(Map<String, String> options, String warehouse) {
        Map<String, String> props = new LinkedHashMap<>(options);
        boolean rest =
                CatalogUtil.ICEBERG_CATALOG_TYPE_REST.equalsIgnoreCase(
                        props.get(CatalogUtil.ICEBERG_CATALOG_TYPE));
        String location = rest ? warehouse : LakeStorageOptions.warehouseUri(warehouse);
        props.put(CatalogProperties.WAREHOUSE_LOCATION, location);
        if (!props.containsKey(CatalogUtil.ICEBERG_CATALOG_TYPE)
                && !props.containsKey(CatalogProperties.CATALOG_IMPL)) {
            // the Hadoop catalog keeps everything in the warehouse directory: no service needed
            props.put(CatalogUtil.ICEBERG_CATALOG_TYPE, CatalogUtil.ICEBERG_CATALOG_TYPE_HADOOP);
        }
        String scheme = scheme(location);
        if (OBJECT_STORE_SCHEMES.contains(scheme) && isHadoopCatalog(props)) {
            throw new InvalidConfigException(
                    "the Iceberg warehouse '"
                            + location
                            + "' is on object storage, where the Hadoop catalog (datalake.iceberg.type:"
                            + " hadoop, the default) commits by renaming a file, which is not atomic"
                            + " there: a commit could be lost. Use a catalog that commits atomically:"
                            + " 'datalake.iceberg.type: rest' with 'datalake.iceberg.uri: <the REST"
                            + " catalog's URL>', 'datalake.iceberg.type: jdbc' with"
                            + " 'datalake.iceberg.uri: jdbc:<database URL>', or"
                            + " 'datalake.iceberg.type: hive' with 'datalake.iceberg.uri:"
                            + " thrift://<metastore>:9083'");
        }
        if (S3_SCHEMES.contains(scheme) && !props.containsKey(CatalogProperties.FILE_IO_IMPL)) {
            // without credentials in the options S3FileIO asks the AWS SDK's default provider
            // chain (environment, profile, instance role): nothing is forced here
            props.put(CatalogProperties.FILE_IO_IMPL, S3_FILE_IO);
        }
        return props;
    }

    /** {@code message} with the value of every secret option masked. */
    static String withoutSecrets(String message, Map<String, String> options) {
        String out = message;
        for (Map.Entry<String, String> e : options.entrySet()) {
            String v = e.getValue();
            if (Secrets.isSecret(e.getKey()) && v != null && !v.isEmpty()) {
                out = out.replace(v, Secrets.MASK);
            }
        }
        return out;
    }

    private static boolean isHadoopCatalog(Map<String, String> props) {
        return CatalogUtil.ICEBERG_CATALOG_TYPE_HADOOP.equalsIgnoreCase(
                        props.get(CatalogUtil.ICEBERG_CATALOG_TYPE))
                || HADOOP_CATALOG_IMPL.equals(props.get(CatalogProperties.CATALOG_IMPL));
    }

    /** The URI scheme in lower case, or "" for a path without one. */
    static String scheme(String location) {
        try {
            String s = new URI(location).getScheme();
            return s == null ? "" : s.toLowerCase(Locale.ROOT);
        } catch (URISyntaxException e) {
            return "";
        }
    }
}
