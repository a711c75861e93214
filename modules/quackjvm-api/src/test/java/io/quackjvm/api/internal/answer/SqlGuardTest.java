package io.quackjvm.api.internal.answer;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertTrue;

class SqlGuardTest {

    @Test
    void everyDeniedFunctionExistsInTheShippedDriverAndIsLeftOut() throws Exception {
        Set<String> names = new HashSet<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(SqlGuard.FUNCTIONS_SQL)) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        Set<String> missing = new HashSet<>(SqlGuard.DENIED);
        missing.removeAll(names);
        assertTrue(missing.isEmpty(), "denied but not in duckdb_functions(): " + missing);
        Set<String> pure = SqlGuard.pureFunctions(names);
        for (String denied : SqlGuard.DENIED) {
            assertTrue(!pure.contains(denied), denied);
        }
        assertTrue(pure.contains("upper") && pure.contains("sum") && pure.contains("row_number"), "pure set");
    }
}
