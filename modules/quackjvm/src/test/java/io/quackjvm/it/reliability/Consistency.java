package io.quackjvm.it.reliability;

import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBIndex;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;

import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.greaterThanOrEqualTo;
import static com.googlecode.cqengine.query.QueryFactory.lessThan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The checks that the index tables agree with the stored objects: through the collection, and through plain SQL. */
final class Consistency {

    private Consistency() {
    }

    /** The model (id to version) as objects. */
    static Map<Integer, Part> objects(Map<Integer, Integer> model) {
        Map<Integer, Part> out = new HashMap<>();
        model.forEach((id, version) -> out.put(id, Part.of(id, version)));
        return out;
    }

    /**
     * Queries every indexed attribute through the collection and compares the ids found with the ids computed
     * from {@code stored} (the objects read from the same collection). Each query must be answered by its
     * DuckDB index, not by CQEngine's fallback scan, else the check would not reach the index tables.
     */
    static void indexesAgreeWithObjects(PartStore store, Collection<Part> stored, String context) {
        assertEquals(stored.size(), store.parts.size(), context + ": size()");
        for (String group : Part.GROUPS) {
            check(store, equal(Part.GROUP, group), stored, p -> p.group().equals(group), context);
        }
        check(store, equal(Part.GROUP, "none"), stored, p -> false, context);
        for (String tag : Part.TAG_VALUES) {
            check(store, equal(Part.TAGS, tag), stored, p -> p.tags().contains(tag), context);
        }
        for (int bound = 0; bound <= Part.MAX_WEIGHT; bound += Part.MAX_WEIGHT / 4) {
            int b = bound;
            check(store, lessThan(Part.WEIGHT, b), stored, p -> p.weight() < b, context);
            check(store, greaterThanOrEqualTo(Part.WEIGHT, b), stored, p -> p.weight() >= b, context);
        }
        check(store, between(Part.WEIGHT, 4000, 4100), stored, p -> p.weight() >= 4000 && p.weight() <= 4100, context);
        int n = 0;
        for (Part p : stored) {
            if (n++ == 20) {
                break;
            }
            check(store, equal(Part.WEIGHT, p.weight()), stored, q -> q.weight() == p.weight(), context);
        }
    }

    private static void check(PartStore store, Query<Part> query, Collection<Part> stored, Predicate<Part> expected,
                              String context) {
        Set<Integer> want = new HashSet<>();
        for (Part p : stored) {
            if (expected.test(p)) {
                want.add(p.id());
            }
        }
        Set<Integer> got = new HashSet<>();
        try (ResultSet<Part> rs = store.parts.retrieve(query)) {
            assertNotEquals(Integer.MAX_VALUE, rs.getRetrievalCost(), context + ": " + query + " was not answered by its index");
            for (Part p : rs) {
                assertTrue(got.add(p.id()), context + ": " + query + " returned id " + p.id() + " twice");
                assertTrue(expected.test(p), context + ": " + query + " returned " + p + ", which does not match");
            }
        }
        assertEquals(want, got, context + ": ids found by " + query);
    }

    /**
     * Opens the (closed) database file read-only with plain JDBC, without the library, and checks that the object
     * table holds exactly the expected keys and every index table exactly the expected (key, value) rows.
     */
    static void tablesAgreeInSql(Path file, String objectTable, List<DuckDBIndex<?, Part>> indexes,
                                 Collection<Part> expected, String context) throws SQLException {
        Properties readOnly = new Properties();
        readOnly.setProperty("duckdb.read_only", "true");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file, readOnly);
             Statement s = c.createStatement()) {
            Set<Integer> keys = new HashSet<>();
            try (java.sql.ResultSet rs = s.executeQuery("SELECT _key FROM \"" + objectTable + "\"")) {
                while (rs.next()) {
                    keys.add(rs.getInt(1));
                }
            }
            Set<Integer> wantKeys = new HashSet<>();
            expected.forEach(p -> wantKeys.add(p.id()));
            assertEquals(wantKeys, keys, context + ": keys of table " + objectTable + " (SQL)");
            Set<String> registered = new HashSet<>();
            try (PreparedStatement p = c.prepareStatement("SELECT table_name FROM quackjvm_indexes");
                 java.sql.ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    registered.add(rs.getString(1));
                }
            }
            for (DuckDBIndex<?, Part> index : indexes) {
                String table = index.getTableName();
                assertTrue(registered.contains(table), context + ": index table " + table + " missing from quackjvm_indexes " + registered);
                Map<String, Integer> rows = new TreeMap<>();
                try (java.sql.ResultSet rs = s.executeQuery("SELECT _key, value FROM \"" + table + "\"")) {
                    while (rs.next()) {
                        rows.merge(rs.getInt(1) + "=" + rs.getObject(2), 1, Integer::sum);
                    }
                }
                Map<String, Integer> want = new TreeMap<>();
                for (Part p : expected) {
                    for (Object v : values(index, p)) {
                        want.merge(p.id() + "=" + v, 1, Integer::sum);
                    }
                }
                if (!want.equals(rows)) {
                    List<String> missing = new ArrayList<>();
                    List<String> extra = new ArrayList<>();
                    want.forEach((k, n) -> { if (!n.equals(rows.get(k))) missing.add(k + " x" + n + " (found " + rows.get(k) + ")"); });
                    rows.forEach((k, n) -> { if (!want.containsKey(k)) extra.add(k + " x" + n); });
                    throw new AssertionError(context + ": rows of index table " + table + " (SQL) differ from the objects; "
                            + "expected but not found: " + head(missing) + "; found but not expected: " + head(extra));
                }
            }
        }
    }

    private static List<?> values(DuckDBIndex<?, Part> index, Part p) {
        Function<Part, List<?>> f = switch (index.getAttribute().getAttributeName()) {
            case "group" -> q -> List.of(q.group());
            case "weight" -> q -> List.of(q.weight());
            case "tags" -> Part::tags;
            default -> throw new IllegalArgumentException(index.getAttribute().getAttributeName());
        };
        return f.apply(p);
    }

    private static List<String> head(List<String> items) {
        return items.size() <= 10 ? items : items.subList(0, 10);
    }
}
