package io.quackjvm.api.internal.answer;

import io.quackjvm.api.UnsafeQueryException;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Decides whether a SELECT, as DuckDB's own parser serialised it ({@code json_serialize_sql}), reads only the
 * collections' relations and pure functions, so that {@code DuckDBDatabase.query} can run text an end user typed.
 * Fail-closed: every node, table reference and expression class of the tree must be one this class knows.
 * <ul>
 *   <li>table references: {@code BASE_TABLE} with no schema or catalog, named as a collection or as a CTE in scope
 *       (a CTE sees the ones before it in its {@code WITH}, a recursive one itself), joins, subqueries,
 *       {@code VALUES}, and the table functions of {@link #TABLE_FUNCTIONS} only; anything else (other table
 *       functions, replacement scans of files, {@code PIVOT}, {@code SUMMARIZE}, time travel) is refused;</li>
 *   <li>functions: unqualified (or in schema {@code main}, as the parser writes some), and in the set {@link #pureFunctions} computes from the engine's own
 *       {@code duckdb_functions()} (built-in scalar, aggregate, window functions and macros) minus {@link #DENIED},
 *       the built-ins that reveal paths, configuration or catalog state or that have side effects.</li>
 * </ul>
 * The raw object bytes are out of reach because only the collections' views can be named and they hold no BLOB
 * column. Thread-safe (immutable).
 */
final class SqlGuard {

    /** The only table functions a query may use: generators that read nothing. */
    static final Set<String> TABLE_FUNCTIONS = Set.of("range", "generate_series", "unnest");

    /**
     * Built-in functions refused although scalar, aggregate, window functions or macros: they reveal settings,
     * paths, the session or the catalog, or they change state. Every name must exist in the shipped driver's
     * {@code duckdb_functions()} (a test checks it).
     */
    static final Set<String> DENIED = Set.of(
            "current_setting", "getvariable", "current_catalog", "current_database", "current_schema",
            "current_schemas", "current_query", "current_query_id", "current_connection_id",
            "current_transaction_id", "current_role", "current_user", "session_user", "user", "in_search_path",
            "version", "get_block_size", "txid_current", "nextval", "currval", "setseed", "sleep_ms", "pg_sleep",
            "write_log", "json_serialize_plan", "col_description", "obj_description", "shobj_description",
            "pg_get_viewdef", "pg_get_constraintdef", "pg_get_expr", "pg_conf_load_time",
            "pg_postmaster_start_time", "pg_my_temp_schema", "pg_is_other_temp_schema", "pg_table_is_visible",
            "pg_function_is_visible", "pg_type_is_visible", "has_table_privilege", "has_schema_privilege",
            "has_database_privilege", "has_column_privilege", "has_any_column_privilege", "has_function_privilege",
            "has_sequence_privilege", "pg_has_role", "inet_client_addr", "inet_client_port", "inet_server_addr",
            "inet_server_port");

    /** Functions the parser writes that {@code duckdb_functions()} does not list. */
    private static final Set<String> PARSER_FUNCTIONS = Set.of("unnest", "unlist");

    private static final Set<String> NODES = Set.of("SELECT_NODE", "SET_OPERATION_NODE", "RECURSIVE_CTE_NODE",
            "CTE_NODE");
    private static final Set<String> OTHER_TYPES = Set.of("JOIN", "SUBQUERY", "EXPRESSION_LIST", "EMPTY",
            "ORDER_MODIFIER", "LIMIT_MODIFIER", "LIMIT_PERCENT_MODIFIER", "DISTINCT_MODIFIER", "ORDER_DEFAULT",
            "ASCENDING", "DESCENDING");
    private static final Set<String> EXPRESSIONS = Set.of("CONSTANT", "COLUMN_REF", "FUNCTION", "COMPARISON",
            "CONJUNCTION", "OPERATOR", "CASE", "CAST", "BETWEEN", "SUBQUERY", "STAR", "PARAMETER", "WINDOW",
            "LAMBDA", "LAMBDA_REF", "COLLATE", "POSITIONAL_REFERENCE");

    private static final String REFUSED = "database.query refused the SQL before running it: ";
    private static final String ALLOWED = " It reads only the collections' relations (by their names, unqualified) "
            + "with built-in scalar, aggregate and window functions; see the SQL section of docs/aggregates.md.";

    private final Set<String> functions;

    /** @param functions the pure functions, lower case ({@link #pureFunctions}) */
    SqlGuard(Set<String> functions) {
        this.functions = functions;
    }

    /** The SQL that lists the candidate functions of the engine: built-in, not table functions. */
    static final String FUNCTIONS_SQL = "SELECT DISTINCT lower(function_name) FROM duckdb_functions() WHERE internal "
            + "AND function_type IN ('scalar', 'aggregate', 'window', 'macro')";

    /** The allowed functions: the engine's {@code candidates} ({@link #FUNCTIONS_SQL}) minus {@link #DENIED}. */
    static Set<String> pureFunctions(Set<String> candidates) {
        Set<String> out = new HashSet<>(candidates);
        out.addAll(PARSER_FUNCTIONS);
        out.removeAll(DENIED);
        return Set.copyOf(out);
    }

    /**
     * Checks one serialised statement ({@code statements[0]} of {@code json_serialize_sql}).
     *
     * @param relations the collections' relation names, lower case
     * @throws UnsafeQueryException naming the first construct that is not allowed
     */
    void check(String json, Set<String> relations, String sql) {
        Object tree = new Json(json).value();
        walk(tree, relations, Set.of(), sql);
    }

    private void walk(Object value, Set<String> relations, Set<String> ctes, String sql) {
        if (value instanceof List<?> list) {
            for (Object item : list) {
                walk(item, relations, ctes, sql);
            }
            return;
        }
        if (!(value instanceof Map<?, ?> map)) {
            return;
        }
        if (map.containsKey("id") && map.containsKey("type_info")) {
            return; // a data type
        }
        Object cls = map.get("class");
        Object type = map.get("type");
        if (cls instanceof String c) {
            if (!EXPRESSIONS.contains(c)) {
                throw refuse("the expression " + c + " is not supported.", sql);
            }
            if (map.containsKey("function_name")) {
                function(map, sql);
            }
        } else if (type instanceof String t) {
            if (NODES.contains(t)) {
                ctes = node(map, relations, ctes, sql);
            } else if (t.equals("BASE_TABLE")) {
                table(map, relations, ctes, sql);
                return;
            } else if (t.equals("TABLE_FUNCTION")) {
                Map<?, ?> f = (Map<?, ?>) map.get("function");
                String name = String.valueOf(f.get("function_name"));
                if (!empty(f.get("schema")) || !empty(f.get("catalog"))
                        || !TABLE_FUNCTIONS.contains(name.toLowerCase(Locale.ROOT))) {
                    throw refuse("the table function " + name + "(...) is not allowed (table functions read files, "
                            + "URLs or the catalog; only " + new java.util.TreeSet<>(TABLE_FUNCTIONS) + " are).", sql);
                }
                walk(f.get("children"), relations, ctes, sql);
                return;
            } else if (!OTHER_TYPES.contains(t)) {
                throw refuse("the construct " + t + " is not supported.", sql);
            }
        }
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (!e.getKey().equals("cte_map")) {
                walk(e.getValue(), relations, ctes, sql);
            }
        }
    }

    /** A query node: its CTEs in order, each seeing the ones before it; returns the scope of the node's body. */
    private Set<String> node(Map<?, ?> node, Set<String> relations, Set<String> ctes, String sql) {
        Set<String> scope = new HashSet<>(ctes);
        if (node.get("type").equals("RECURSIVE_CTE_NODE")) {
            scope.add(String.valueOf(node.get("cte_name")).toLowerCase(Locale.ROOT));
        }
        if (node.get("cte_map") instanceof Map<?, ?> cteMap && cteMap.get("map") instanceof List<?> entries) {
            for (Object entry : entries) {
                Map<?, ?> e = (Map<?, ?>) entry;
                walk(e.get("value"), relations, Set.copyOf(scope), sql);
                scope.add(String.valueOf(e.get("key")).toLowerCase(Locale.ROOT));
            }
        }
        return Set.copyOf(scope);
    }

    private void table(Map<?, ?> ref, Set<String> relations, Set<String> ctes, String sql) {
        String name = String.valueOf(ref.get("table_name"));
        String schema = String.valueOf(ref.get("schema_name"));
        String catalog = String.valueOf(ref.get("catalog_name"));
        if (!empty(schema) || !empty(catalog)) {
            String qualified = (empty(catalog) ? "" : catalog + ".") + (empty(schema) ? "" : schema + ".") + name;
            throw refuse("the qualified relation " + qualified + " is not allowed (only the collections' relations, "
                    + "unqualified, are visible).", sql);
        }
        String lower = name.toLowerCase(Locale.ROOT);
        if (!relations.contains(lower) && !ctes.contains(lower)) {
            throw refuse("the relation '" + name + "' is not a collection of this database (a file, URL or the "
                    + "library's own table is not readable); the relations are " + new java.util.TreeSet<>(relations)
                    + ".", sql);
        }
        if (ref.get("at_clause") != null) {
            throw refuse("the AT clause on '" + name + "' is not supported.", sql);
        }
    }

    private void function(Map<?, ?> f, String sql) {
        String name = String.valueOf(f.get("function_name"));
        Object schema = f.get("schema");
        if (!(empty(schema) || "main".equals(schema)) || !empty(f.get("catalog"))) {
            throw refuse("the qualified function " + f.get("schema") + "." + name + " is not allowed (call built-in "
                    + "functions by their names).", sql);
        }
        if (!functions.contains(name.toLowerCase(Locale.ROOT))) {
            throw refuse("the function " + name + "() is not allowed (it is not a built-in scalar, aggregate or "
                    + "window function, or it reveals settings, paths or the catalog, or has side effects).", sql);
        }
    }

    private static boolean empty(Object s) {
        return s == null || String.valueOf(s).isEmpty();
    }

    static UnsafeQueryException refuse(String what, String sql) {
        return new UnsafeQueryException(REFUSED + what + ALLOWED + " SQL: " + sql);
    }

    /** A minimal reader of the JSON DuckDB writes: objects, arrays, strings, numbers, booleans and null. */
    private static final class Json {
        private final String s;
        private int i;

        Json(String s) {
            this.s = s;
        }

        Object value() {
            skip();
            char c = s.charAt(i);
            switch (c) {
                case '{': {
                    i++;
                    Map<String, Object> m = new LinkedHashMap<>();
                    skip();
                    if (s.charAt(i) == '}') {
                        i++;
                        return m;
                    }
                    while (true) {
                        skip();
                        String key = string();
                        skip();
                        i++; // ':'
                        m.put(key, value());
                        skip();
                        if (s.charAt(i++) == '}') {
                            return m;
                        }
                    }
                }
                case '[': {
                    i++;
                    List<Object> l = new ArrayList<>();
                    skip();
                    if (s.charAt(i) == ']') {
                        i++;
                        return l;
                    }
                    while (true) {
                        l.add(value());
                        skip();
                        if (s.charAt(i++) == ']') {
                            return l;
                        }
                    }
                }
                case '"':
                    return string();
                default: {
                    int start = i;
                    while (i < s.length() && ",}] \n\t\r".indexOf(s.charAt(i)) < 0) {
                        i++;
                    }
                    String word = s.substring(start, i);
                    return word.equals("null") ? null : word;
                }
            }
        }

        private String string() {
            StringBuilder b = new StringBuilder();
            i++; // opening quote
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') {
                    return b.toString();
                }
                if (c == '\\') {
                    char e = s.charAt(i++);
                    if (e == 'u') {
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                    } else {
                        int k = "nrtbf".indexOf(e);
                        b.append(k < 0 ? e : "\n\r\t\b\f".charAt(k));
                    }
                } else {
                    b.append(c);
                }
            }
        }

        private void skip() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }
    }
}
