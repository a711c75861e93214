package io.quackjvm.testkit;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/** A fresh in-memory DuckDB database for one test. */
final class Scratch {

    private Scratch() {
    }

    static Connection open() throws SQLException {
        return DriverManager.getConnection("jdbc:duckdb:");
    }
}
