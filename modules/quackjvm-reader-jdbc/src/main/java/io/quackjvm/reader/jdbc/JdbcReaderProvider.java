package io.quackjvm.reader.jdbc;

import io.quackjvm.api.spi.ResultReaderProvider;
import io.quackjvm.api.spi.RowCursor;

import java.sql.ResultSet;
import java.util.Optional;

/** The {@code "jdbc"} reader: one JDBC getter per value. Cheap to set up, so right for small results. */
public final class JdbcReaderProvider implements ResultReaderProvider {

    @Override
    public String name() {
        return "jdbc";
    }

    @Override
    public boolean bulk() {
        return false;
    }

    @Override
    public Optional<String> unavailableReason() {
        return Optional.empty();
    }

    @Override
    public RowCursor open(ResultSet resultSet) {
        return new JdbcRowCursor(resultSet);
    }
}
