package dev.tributary.flink.catalog;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.factories.CatalogFactory;

/** {@code 'type' = 'tributary'}: creates a {@link TributaryCatalog}. */
public final class TributaryCatalogFactory implements CatalogFactory {

    @Override
    public String factoryIdentifier() {
        return TributaryCatalogOptions.IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(TributaryCatalogOptions.ADDRESS);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(TributaryCatalogOptions.TOKEN, TributaryCatalogOptions.DEFAULT_DATABASE);
    }

    @Override
    public Catalog createCatalog(Context context) {
        Map<String, String> options = context.getOptions();
        Map<String, String> client = new LinkedHashMap<>();
        Map<String, String> lake = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : options.entrySet()) {
            String k = e.getKey();
            if (k.startsWith(TributaryCatalogOptions.CLIENT_PREFIX)) {
                client.put(k, e.getValue());
            } else if (k.startsWith(TributaryCatalogOptions.DATALAKE_PREFIX)) {
                lake.put(k, e.getValue());
            } else if (!k.equals("type")
                    && !k.equals(TributaryCatalogOptions.ADDRESS.key())
                    && !k.equals(TributaryCatalogOptions.TOKEN.key())
                    && !k.equals(TributaryCatalogOptions.DEFAULT_DATABASE.key())
                    && !k.equals("property-version")) {
                throw new ValidationException(
                        "unknown option '"
                                + k
                                + "' of Tributary catalog '"
                                + context.getName()
                                + "': use address, token, default-database, client.* or"
                                + " datalake.*");
            }
        }
        Configuration conf = Configuration.fromMap(options);
        String address = conf.get(TributaryCatalogOptions.ADDRESS);
        if (address == null || address.isBlank()) {
            throw new ValidationException(
                    "Tributary catalog '"
                            + context.getName()
                            + "' needs 'address' = 'host:port' of the server");
        }
        return new TributaryCatalog(
                context.getName(),
                conf.get(TributaryCatalogOptions.DEFAULT_DATABASE),
                new ConnectionConfig(
                        address, conf.get(TributaryCatalogOptions.TOKEN), client, lake));
    }
}
