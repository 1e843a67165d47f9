package dev.tributary.cli.input;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypeParser;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Reads a table definition from a compact DDL-like string ({@code "id BIGINT, dt STRING, PRIMARY
 * KEY (id, dt), PARTITIONED BY (dt)"}) or from a JSON file ({@code
 * {"columns":[{"name":"id","type":"BIGINT"}], "primaryKey":["id"],"partitionKeys":["dt"],
 * "buckets":4,"bucketKeys":[],"properties":{},"comment":"..."}}).
 */
public final class SchemaParser {
    private SchemaParser() {}

    /** Parses the compact column list (a {@code PARTITIONED BY} clause is not allowed here). */
    public static Schema parseDdl(String ddl) {
        Parsed parsed = parse(ddl);
        if (!parsed.partitionKeys().isEmpty()) {
            throw new InvalidInputException(
                    "PARTITIONED BY belongs to a table definition, not to a schema: '" + ddl + "'");
        }
        return parsed.schema();
    }

    /**
     * Parses a table definition: columns, an optional {@code PRIMARY KEY (...)} and an optional
     * {@code PARTITIONED BY (...)} (T30), as items of the comma-separated list.
     */
    public static TableDescriptor.Builder parseTableDdl(String ddl) {
        Parsed parsed = parse(ddl);
        return TableDescriptor.builder(parsed.schema()).partitionKeys(parsed.partitionKeys());
    }

    private record Parsed(Schema schema, List<String> partitionKeys) {}

    private static Parsed parse(String ddl) {
        List<Column> columns = new ArrayList<>();
        List<String> primaryKey = new ArrayList<>();
        List<String> partitionKeys = new ArrayList<>();
        for (String part : splitTopLevel(ddl)) {
            String p = part.trim();
            if (p.isEmpty()) {
                throw new InvalidInputException("empty column definition in schema '" + ddl + "'");
            }
            String upper = p.toUpperCase(java.util.Locale.ROOT).replaceAll("\\s+", " ");
            if (upper.startsWith("PRIMARY KEY")) {
                primaryKey.addAll(columnList(p, "PRIMARY KEY (col, ...)"));
                continue;
            }
            if (upper.startsWith("PARTITIONED BY")) {
                if (!partitionKeys.isEmpty()) {
                    throw new InvalidInputException(
                            "PARTITIONED BY is given twice in '" + ddl + "'");
                }
                partitionKeys.addAll(columnList(p, "PARTITIONED BY (col, ...)"));
                continue;
            }
            int space = p.indexOf(' ');
            if (space < 0) {
                throw new InvalidInputException(
                        "column '"
                                + p
                                + "' has no type: expected '<name> <TYPE>', e.g. 'id BIGINT'");
            }
            columns.add(
                    new Column(
                            p.substring(0, space).trim(),
                            DataTypeParser.parse(p.substring(space + 1))));
        }
        return new Parsed(Schema.of(columns, primaryKey), partitionKeys);
    }

    private static List<String> columnList(String item, String expected) {
        int open = item.indexOf('(');
        int close = item.lastIndexOf(')');
        if (open < 0 || close < open) {
            throw new InvalidInputException("invalid '" + item + "': expected " + expected);
        }
        List<String> out = new ArrayList<>();
        for (String k : item.substring(open + 1, close).split(",")) {
            if (k.isBlank()) {
                throw new InvalidInputException(
                        "invalid '" + item + "': empty column name; expected " + expected);
            }
            out.add(k.trim());
        }
        return out;
    }

    /** Reads a whole table definition from JSON; command-line flags may override parts. */
    public static TableDescriptor.Builder parseJsonFile(Path file) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(Files.readString(file));
        } catch (IOException e) {
            throw new InvalidInputException(
                    "cannot read schema file " + file + ": " + e.getMessage(), e);
        }
        JsonNode cols = root.path("columns");
        if (!cols.isArray() || cols.isEmpty()) {
            throw new InvalidInputException(
                    "schema file " + file + " needs a non-empty \"columns\" array");
        }
        List<Column> columns = new ArrayList<>();
        for (JsonNode c : cols) {
            if (!c.hasNonNull("name") || !c.hasNonNull("type")) {
                throw new InvalidInputException(
                        "each column in " + file + " needs \"name\" and \"type\": " + c);
            }
            columns.add(
                    new Column(
                            c.get("name").asText(),
                            DataTypeParser.parse(c.get("type").asText()),
                            c.hasNonNull("comment") ? c.get("comment").asText() : null));
        }
        List<String> pk = new ArrayList<>();
        root.path("primaryKey").forEach(k -> pk.add(k.asText()));
        List<String> partitionKeys = new ArrayList<>();
        JsonNode partitioned = root.path("partitionKeys");
        if (!partitioned.isMissingNode() && !partitioned.isArray()) {
            throw new InvalidInputException(
                    "\"partitionKeys\" in " + file + " must be an array of column names");
        }
        partitioned.forEach(k -> partitionKeys.add(k.asText()));
        TableDescriptor.Builder b =
                TableDescriptor.builder(Schema.of(columns, pk)).partitionKeys(partitionKeys);
        if (root.has("buckets")) {
            b.bucketCount(root.get("buckets").asInt());
        }
        List<String> bucketKeys = new ArrayList<>();
        root.path("bucketKeys").forEach(k -> bucketKeys.add(k.asText()));
        b.bucketKeys(bucketKeys);
        Iterator<Map.Entry<String, JsonNode>> props = root.path("properties").fields();
        while (props.hasNext()) {
            Map.Entry<String, JsonNode> e = props.next();
            b.property(e.getKey(), e.getValue().asText());
        }
        if (root.hasNonNull("comment")) {
            b.comment(root.get("comment").asText());
        }
        return b;
    }

    /** Splits on commas outside parentheses ({@code DECIMAL(10, 2)} stays whole). */
    static List<String> splitTopLevel(String s) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        out.add(s.substring(start));
        return out;
    }
}
