package io.quackjvm.api.internal.answer;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Turns LIST and STRUCT values (in the {@link io.quackjvm.api.spi.RowSource} representation) into JDBC parameters
 * for DuckDB's driver, which needs each level's DuckDB type spelled out ({@code createArrayOf},
 * {@code createStruct}).
 */
public final class DuckTypes {

    private DuckTypes() {
    }

    /**
     * A DATE parameter as DuckDB's own text: duckdb_jdbc 1.5.6.0 stores a {@code LocalDate} with a year before 1 as
     * the wrong year when bound with {@code setObject} (year 0 becomes 1 AD), while the text form with
     * {@code (BC)} is exact. The Appender path is not affected.
     */
    public static String dateLiteral(LocalDate d) {
        int year = d.getYear();
        String monthDay = String.format("-%02d-%02d", d.getMonthValue(), d.getDayOfMonth());
        return year >= 1 ? String.format("%04d", year) + monthDay
                : String.format("%04d", 1L - year) + monthDay + " (BC)";
    }

    /** The JDBC parameter for {@code value} (a List for a LIST type, a Map for a STRUCT type) of {@code sqlType}. */
    public static Object toJdbc(Connection c, String sqlType, Object value) throws SQLException {
        if (value == null) {
            return null;
        }
        String type = sqlType.trim();
        if (type.endsWith("[]")) {
            String element = type.substring(0, type.length() - 2);
            Collection<?> values = (Collection<?>) value;
            Object[] out = new Object[values.size()];
            int i = 0;
            for (Object v : values) {
                out[i++] = toJdbc(c, element, v);
            }
            return c.createArrayOf(element, out);
        }
        if (type.regionMatches(true, 0, "STRUCT(", 0, 7)) {
            List<String> fieldTypes = structFieldTypes(type);
            Map<?, ?> fields = (Map<?, ?>) value;
            if (fields.size() != fieldTypes.size()) {
                throw new IllegalArgumentException("A value for " + type + " has " + fields.size() + " fields");
            }
            Object[] out = new Object[fieldTypes.size()];
            int i = 0;
            for (Object v : fields.values()) {
                out[i] = toJdbc(c, fieldTypes.get(i), v);
                i++;
            }
            return c.createStruct(type, out);
        }
        return value instanceof LocalDate d ? dateLiteral(d) : value;
    }

    /** The types of a {@code STRUCT(name type, ...)}'s fields, in order. */
    static List<String> structFieldTypes(String structType) {
        String body = structType.substring(structType.indexOf('(') + 1, structType.lastIndexOf(')'));
        List<String> types = new ArrayList<>();
        for (String field : splitTopLevel(body)) {
            String f = field.trim();
            int nameEnd;
            if (f.startsWith("\"")) {
                nameEnd = 1;
                while (nameEnd < f.length()) {
                    if (f.charAt(nameEnd) == '"') {
                        if (nameEnd + 1 < f.length() && f.charAt(nameEnd + 1) == '"') {
                            nameEnd += 2;
                            continue;
                        }
                        break;
                    }
                    nameEnd++;
                }
                nameEnd++;
            } else {
                nameEnd = f.indexOf(' ');
            }
            types.add(f.substring(nameEnd).trim());
        }
        return types;
    }

    /** Splits at commas outside parentheses and quotes. */
    private static List<String> splitTopLevel(String s) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        char quote = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (quote != 0) {
                if (ch == quote) {
                    quote = 0; // a doubled quote closes and reopens: harmless for splitting
                }
            } else if (ch == '\'' || ch == '"') {
                quote = ch;
            } else if (ch == '(') {
                depth++;
            } else if (ch == ')') {
                depth--;
            } else if (ch == ',' && depth == 0) {
                parts.add(s.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(s.substring(start));
        return parts;
    }
}
