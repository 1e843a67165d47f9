package dev.tributary.cli.output;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A plain-text table with columns padded to their widest cell. */
public final class TextTable {
    private final String[] header;
    private final List<String[]> rows = new ArrayList<>();

    public TextTable(String... header) {
        this.header = header;
    }

    public TextTable row(Object... cells) {
        String[] r = new String[header.length];
        for (int i = 0; i < r.length; i++) {
            r[i] = i < cells.length && cells[i] != null ? cells[i].toString() : "";
        }
        rows.add(r);
        return this;
    }

    public void print(PrintWriter out) {
        int[] width = new int[header.length];
        for (int i = 0; i < header.length; i++) {
            width[i] = header[i].length();
            for (String[] r : rows) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        line(out, header, width);
        for (String[] r : rows) {
            line(out, r, width);
        }
    }

    private static void line(PrintWriter out, String[] cells, int[] width) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            if (i > 0) {
                sb.append("  ");
            }
            sb.append(cells[i]);
            if (i < cells.length - 1) {
                sb.append(" ".repeat(width[i] - cells[i].length()));
            }
        }
        out.println(sb.toString().stripTrailing());
    }
}
