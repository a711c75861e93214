package io.quackjvm.storage.columnar;

import io.quackjvm.api.spi.Column;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sign of zero in the FLOAT and DOUBLE values of the columnar layout. Java's {@code equals} tells {@code -0.0}
 * from {@code 0.0}; DuckDB does not keep them apart: a checkpoint stores a column segment whose values are all zeros
 * as one constant (its statistics say min == max), RLE merges runs of both, and an UPDATE leaves a value that
 * compares equal to the old one as it was. So the typed columns hold every zero as {@code 0.0}, and each row records
 * its negative zeros in columns of their own, NULL in a row that has none:
 * <ul>
 *   <li>{@value #MASK} (BIGINT): bit {@code k} is set when the {@code k}-th FLOAT/DOUBLE field of the table (in
 *   column order, at most {@value #MASK_BITS} of them) holds {@code -0.0}. The bit decides the sign of a zero read
 *   from that column;</li>
 *   <li>{@value #PATHS} (VARCHAR): the comma-separated paths of the {@code -0.0}s inside LIST and STRUCT fields, and
 *   of FLOAT/DOUBLE fields beyond the mask's bits: the field name, then {@code [i]} for the {@code i}-th (0-based)
 *   element of a LIST and {@code .name} for a STRUCT field, for example {@code points[3].x}. Names are Java
 *   identifiers, which hold none of {@code , [ ] .}.</li>
 * </ul>
 * A table written before these columns existed gets them when it is opened for writing, filled from the signs its
 * columns still hold ({@link #fill}); opened read-only, it is read as stored. Stateless.
 */
final class NegativeZeros {

    private NegativeZeros() {
    }

    static final String MASK = "_negative_zeros";
    static final String PATHS = "_negative_zero_paths";
    static final Column MASK_COLUMN = new Column(MASK, "BIGINT");
    static final Column PATHS_COLUMN = new Column(PATHS, "VARCHAR");
    /** Bits of the mask in use: the sign bit is left alone. */
    static final int MASK_BITS = 63;

    private static final long NEGATIVE_DOUBLE_ZERO = Double.doubleToRawLongBits(-0.0);
    private static final int NEGATIVE_FLOAT_ZERO = Float.floatToRawIntBits(-0.0f);

    /** How a field's values may hold a negative zero. */
    enum Kind {
        /** No FLOAT or DOUBLE anywhere in it. */
        NONE,
        /** A FLOAT or DOUBLE column. */
        SCALAR,
        /** A LIST or STRUCT with a FLOAT or DOUBLE inside. */
        NESTED
    }

    static Kind kind(Codec codec) {
        if (floating(codec)) {
            return Kind.SCALAR;
        }
        return holdsFloating(codec) ? Kind.NESTED : Kind.NONE;
    }

    private static boolean floating(Codec codec) {
        return codec.sqlType().equals("DOUBLE") || codec.sqlType().equals("FLOAT");
    }

    private static boolean holdsFloating(Codec codec) {
        if (codec instanceof Codecs.ListCodec list) {
            return floating(list.element()) || holdsFloating(list.element());
        }
        if (codec instanceof Codecs.StructCodec struct) {
            for (Codec field : struct.fields()) {
                if (floating(field) || holdsFloating(field)) {
                    return true;
                }
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- Java values

    /** Whether {@code value} is a {@code Double} or {@code Float} negative zero. */
    static boolean isNegativeZero(Object value) {
        if (value instanceof Double d) {
            return Double.doubleToRawLongBits(d) == NEGATIVE_DOUBLE_ZERO;
        }
        return value instanceof Float f && Float.floatToRawIntBits(f) == NEGATIVE_FLOAT_ZERO;
    }

    /** {@code 0.0} of the type of {@code zero}, a Double or Float. */
    static Object positiveZero(Object zero) {
        return zero instanceof Float ? (Object) 0.0f : (Object) 0.0;
    }

    /**
     * {@code value} as read from a FLOAT/DOUBLE column, with the sign of a zero as {@code negative} says; any other
     * value as it is.
     */
    static Object signed(Object value, boolean negative) {
        if (value instanceof Double d) {
            return d != 0 ? d : negative ? -0.0 : 0.0;
        }
        if (value instanceof Float f) {
            return f != 0 ? f : negative ? -0.0f : 0.0f;
        }
        return value;
    }

    /**
     * A value in the codecs' SQL representation (LISTs as {@code List}, STRUCTs as {@code Map}) with every negative
     * zero inside replaced by {@code 0.0}, the path of each appended to {@code paths}. The same instance when it
     * holds none; otherwise the containers on the way are copied, never changed.
     *
     * @param path the path of {@code value} (its field's name on the first call); restored before returning
     */
    static Object normalise(Object value, StringBuilder path, Paths paths) {
        if (value instanceof Double || value instanceof Float) {
            if (isNegativeZero(value)) {
                paths.add(path);
                return positiveZero(value);
            }
            return value;
        }
        int length = path.length();
        if (value instanceof List<?> list) {
            List<Object> copy = null;
            for (int i = 0; i < list.size(); i++) {
                Object e = list.get(i);
                path.append('[').append(i).append(']');
                Object n = normalise(e, path, paths);
                path.setLength(length);
                if (n != e) {
                    if (copy == null) {
                        copy = new ArrayList<>(list);
                    }
                    copy.set(i, n);
                }
            }
            return copy == null ? value : copy;
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> copy = null;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                path.append('.').append(e.getKey());
                Object n = normalise(e.getValue(), path, paths);
                path.setLength(length);
                if (n != e.getValue()) {
                    if (copy == null) {
                        copy = new LinkedHashMap<>(map);
                    }
                    copy.put(e.getKey(), n);
                }
            }
            return copy == null ? value : copy;
        }
        return value;
    }

    /** The paths of a row's negative zeros, joined with commas as {@value #PATHS} holds them. */
    static final class Paths {
        private StringBuilder joined;

        void add(CharSequence path) {
            if (joined == null) {
                joined = new StringBuilder(path.length() + 8);
            } else {
                joined.append(',');
            }
            joined.append(path);
        }

        /** The column's value: {@code null} when there are none. */
        String value() {
            return joined == null ? null : joined.toString();
        }
    }

    /** Whether {@code paths} (a {@value #PATHS} value, may be {@code null}) names exactly {@code path}. */
    static boolean lists(String paths, String path) {
        if (paths == null) {
            return false;
        }
        int from = 0;
        while (true) {
            int at = paths.indexOf(path, from);
            if (at < 0) {
                return false;
            }
            int end = at + path.length();
            if ((at == 0 || paths.charAt(at - 1) == ',') && (end == paths.length() || paths.charAt(end) == ',')) {
                return true;
            }
            from = at + 1;
        }
    }

    /**
     * {@code value} (field {@code field}'s value in the codecs' SQL representation) with a negative zero at every
     * path of {@code paths} that lies inside it. Containers on the way are copied.
     *
     * @throws IllegalStateException when a path leads nowhere in the value (a row changed outside the collection)
     */
    static Object restore(Object value, String field, String paths) {
        Object out = value;
        int from = 0;
        while (from <= paths.length()) {
            int end = paths.indexOf(',', from);
            if (end < 0) {
                end = paths.length();
            }
            if (paths.startsWith(field, from) && from + field.length() < end) {
                char next = paths.charAt(from + field.length());
                if (next == '[' || next == '.') {
                    out = restoreAt(out, paths, from + field.length(), end, field);
                }
            }
            from = end + 1;
        }
        return out;
    }

    private static Object restoreAt(Object value, String paths, int at, int end, String field) {
        if (at == end) {
            if (value instanceof Double || value instanceof Float) {
                return signed(value, true);
            }
            throw badPath(paths, field, value);
        }
        char step = paths.charAt(at);
        if (step == '[' && value instanceof List<?> list) {
            int close = paths.indexOf(']', at);
            if (close < 0 || close > end) {
                throw badPath(paths, field, value);
            }
            int index;
            try {
                index = Integer.parseInt(paths, at + 1, close, 10);
            } catch (NumberFormatException e) {
                throw badPath(paths, field, value);
            }
            if (index < 0 || index >= list.size()) {
                throw badPath(paths, field, value);
            }
            List<Object> copy = new ArrayList<>(list);
            copy.set(index, restoreAt(list.get(index), paths, close + 1, end, field));
            return copy;
        }
        if (step == '.' && value instanceof Map<?, ?> map) {
            int stop = at + 1;
            while (stop < end && paths.charAt(stop) != '.' && paths.charAt(stop) != '[') {
                stop++;
            }
            String name = paths.substring(at + 1, stop);
            if (!map.containsKey(name)) {
                throw badPath(paths, field, value);
            }
            Map<Object, Object> copy = new LinkedHashMap<>(map);
            copy.put(name, restoreAt(map.get(name), paths, stop, end, field));
            return copy;
        }
        throw badPath(paths, field, value);
    }

    private static IllegalStateException badPath(String paths, String field, Object value) {
        String shown = String.valueOf(value);
        return new IllegalStateException("Column " + PATHS + " of the row records negative zeros at '" + paths
                + "', which field '" + field + "' (" + (shown.length() > 100 ? shown.substring(0, 100) + "..." : shown)
                + ") does not hold; was the table changed outside the collection?");
    }

    // ---------------------------------------------------------------- SQL

    static String quote(String name) {
        return '"' + name + '"';
    }

    private static String negativeZero(String sqlType) {
        return "-(0.0::" + sqlType + ")";
    }

    /** SQL that is TRUE when bit {@code bit} of the mask is set ({@code qualifier} prefixes the column). */
    static String maskSet(String qualifier, long bit) {
        return "(" + qualifier + quote(MASK) + " & " + bit + ") <> 0";
    }

    /** SQL that is TRUE when {@code pathSql} (a VARCHAR expression) is one of the row's paths. */
    static String pathListed(String qualifier, String pathSql) {
        return "list_contains(string_split(" + qualifier + quote(PATHS) + ", ','), " + pathSql + ")";
    }

    /**
     * A FLOAT/DOUBLE column's value with the sign of its zero decided by {@code negative} (SQL that is TRUE for
     * -0.0), whatever sign the column itself holds.
     */
    static String signedSql(String column, String sqlType, String negative) {
        return "(CASE WHEN " + column + " = 0 THEN (CASE WHEN " + negative + " THEN " + negativeZero(sqlType)
                + " ELSE 0.0::" + sqlType + " END) ELSE " + column + " END)";
    }

    /**
     * A LIST or STRUCT field's value with a negative zero at each of the row's paths inside it; the column as it is
     * in a row that has none.
     */
    static String restoredSql(Codec codec, String qualifier, String name) {
        String column = qualifier + quote(name);
        String restored = mapLeaves(codec, column, sqlString(name), 1, (leaf, path, type) -> "(CASE WHEN " + leaf
                + " = 0 AND " + pathListed(qualifier, path) + " THEN " + negativeZero(type) + " ELSE " + leaf + " END)");
        return "(CASE WHEN " + qualifier + quote(PATHS) + " IS NULL THEN " + column + " ELSE " + restored + " END)";
    }

    /** What {@link #mapLeaves} does to one FLOAT/DOUBLE value. */
    @FunctionalInterface
    private interface Leaf {
        /** @param value the value's SQL, @param path its path as a VARCHAR expression, @param type FLOAT or DOUBLE */
        String sql(String value, String path, String type);
    }

    /**
     * The SQL of {@code value} (of {@code codec}'s type) rebuilt with {@code leaf} applied to every FLOAT/DOUBLE
     * inside; parts without one are kept as they are. {@code path}: the VARCHAR expression of its path.
     */
    private static String mapLeaves(Codec codec, String value, String path, int depth, Leaf leaf) {
        if (floating(codec)) {
            return leaf.sql(value, path, codec.sqlType());
        }
        if (!holdsFloating(codec)) {
            return value;
        }
        if (codec instanceof Codecs.ListCodec list) {
            String x = "qj_x" + depth;
            String i = "qj_i" + depth;
            return "list_transform(" + value + ", (" + x + ", " + i + ") -> " + mapLeaves(list.element(), x,
                    path + " || '[' || (" + i + " - 1) || ']'", depth + 1, leaf) + ")";
        }
        Codecs.StructCodec struct = (Codecs.StructCodec) codec;
        StringBuilder sb = new StringBuilder("(CASE WHEN " + value + " IS NULL THEN NULL ELSE struct_pack(");
        for (int k = 0; k < struct.fields().length; k++) {
            String name = struct.names()[k];
            String field = "struct_extract(" + value + ", " + sqlString(name) + ")";
            sb.append(k == 0 ? "" : ", ").append(quote(name)).append(" := ")
                    .append(mapLeaves(struct.fields()[k], field, path + " || " + sqlString("." + name), depth, leaf));
        }
        return sb.append(") END)").toString();
    }

    /**
     * The SQL of the paths of the negative zeros inside {@code value} (of {@code codec}'s type), a VARCHAR[] that is
     * never NULL.
     */
    private static String pathsSql(Codec codec, String value, String path, int depth) {
        String none = "[]::VARCHAR[]";
        if (floating(codec)) {
            return "(CASE WHEN " + value + " = 0 AND signbit(" + value + ") THEN [" + path + "] ELSE " + none
                    + " END)";
        }
        if (codec instanceof Codecs.ListCodec list) {
            String x = "qj_x" + depth;
            String i = "qj_i" + depth;
            return "coalesce(flatten(list_transform(" + value + ", (" + x + ", " + i + ") -> " + pathsSql(list.element(),
                    x, path + " || '[' || (" + i + " - 1) || ']'", depth + 1) + ")), " + none + ")";
        }
        Codecs.StructCodec struct = (Codecs.StructCodec) codec;
        List<String> parts = new ArrayList<>();
        for (int k = 0; k < struct.fields().length; k++) {
            Codec field = struct.fields()[k];
            if (floating(field) || holdsFloating(field)) {
                String name = struct.names()[k];
                parts.add(pathsSql(field, "struct_extract(" + value + ", " + sqlString(name) + ")",
                        path + " || " + sqlString("." + name), depth));
            }
        }
        return "(CASE WHEN " + value + " IS NULL THEN " + none + " ELSE flatten([" + String.join(", ", parts)
                + "]) END)";
    }

    private static String sqlString(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    /** One field of the table as {@link #fill} sees it. */
    record Field(String name, Codec codec, long bit, boolean pathed) {
    }

    /**
     * The statements that fill the columns just added to a table written before them: for every row holding a
     * negative zero (as its columns still hold it), the mask when {@code mask} was added, and the paths when
     * {@code paths} was, with the zeros inside LIST and STRUCT fields made positive (their paths now say the sign;
     * DuckDB replaces a nested value on UPDATE). A top-level column keeps its zero as it is: its mask bit decides the
     * sign, and DuckDB's UPDATE would leave a zero equal to the old one unchanged anyway.
     *
     * @param table the quoted table name
     */
    static List<String> fill(String table, List<Field> fields, boolean mask, boolean paths) {
        List<String> out = new ArrayList<>();
        if (mask) {
            List<String> bits = new ArrayList<>();
            List<String> any = new ArrayList<>();
            for (Field f : fields) {
                if (f.bit() != 0) {
                    String negative = "(" + quote(f.name()) + " = 0 AND signbit(" + quote(f.name()) + "))";
                    bits.add("(CASE WHEN " + negative + " THEN " + f.bit() + "::BIGINT ELSE 0::BIGINT END)");
                    any.add(negative);
                }
            }
            if (!bits.isEmpty()) {
                out.add("UPDATE " + table + " SET " + quote(MASK) + " = " + String.join(" + ", bits) + " WHERE "
                        + String.join(" OR ", any));
            }
        }
        if (paths) {
            List<String> lists = new ArrayList<>();
            List<String> sets = new ArrayList<>();
            for (Field f : fields) {
                if (!f.pathed()) {
                    continue;
                }
                lists.add(pathsSql(f.codec(), quote(f.name()), sqlString(f.name()), 1));
                if (!floating(f.codec())) {
                    sets.add(quote(f.name()) + " = " + mapLeaves(f.codec(), quote(f.name()), sqlString(f.name()), 1,
                            (leaf, path, type) -> "(CASE WHEN " + leaf + " = 0 THEN 0.0::" + type + " ELSE " + leaf
                                    + " END)"));
                }
            }
            if (!lists.isEmpty()) {
                String all = "flatten([" + String.join(", ", lists) + "])";
                sets.add(0, quote(PATHS) + " = array_to_string(" + all + ", ',')");
                out.add("UPDATE " + table + " SET " + String.join(", ", sets) + " WHERE len(" + all + ") > 0");
            }
        }
        return out;
    }
}
