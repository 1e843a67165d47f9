package dev.tributary.cli.demo;

import java.util.Arrays;
import java.util.Iterator;
import java.util.stream.Collectors;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The lake format the demo tiers into. The command line spells it as the lake plugin's identifier
 * ({@code paimon}, {@code iceberg}), which is also the value of the server's {@code
 * datalake.format} and of each table's {@code table.datalake.format}.
 */
public enum DemoLakeFormat {
    PAIMON("paimon"),
    ICEBERG("iceberg");

    private final String identifier;

    DemoLakeFormat(String identifier) {
        this.identifier = identifier;
    }

    /** The lake plugin's identifier. */
    public String identifier() {
        return identifier;
    }

    @Override
    public String toString() {
        return identifier;
    }

    /** Parses the identifier; anything else is a usage error naming the accepted values. */
    public static DemoLakeFormat of(String value) {
        for (DemoLakeFormat f : values()) {
            if (f.identifier.equals(value)) {
                return f;
            }
        }
        throw new TypeConversionException(
                "'" + value + "' is not a lake format; use one of " + identifiers());
    }

    static String identifiers() {
        return Arrays.stream(values()).map(f -> f.identifier).collect(Collectors.joining(", "));
    }

    /** Picocli converter: lower-case identifiers, as in server.yaml. */
    public static final class Converter implements ITypeConverter<DemoLakeFormat> {
        @Override
        public DemoLakeFormat convert(String value) {
            return of(value);
        }
    }

    /** Picocli completion candidates, so {@code --help} lists the identifiers. */
    public static final class Candidates implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(values()).map(f -> f.identifier).iterator();
        }
    }
}
