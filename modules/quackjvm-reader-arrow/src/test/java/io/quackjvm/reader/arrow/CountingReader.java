package io.quackjvm.reader.arrow;

import io.quackjvm.api.spi.ResultReaderProvider;
import io.quackjvm.api.spi.RowCursor;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/** Wraps a reader and counts the cursors it opens, to see which reader the engine chose. */
final class CountingReader implements ResultReaderProvider {

    final ResultReaderProvider delegate;
    final AtomicInteger opened = new AtomicInteger();

    CountingReader(ResultReaderProvider delegate) {
        this.delegate = delegate;
    }

    /** The readers under test: this module's Arrow reader, and plain JDBC getters to compare against. */
    static CountingReader of(String name) {
        return new CountingReader(name.equals("arrow") ? new ArrowReaderProvider() : new PlainJdbcReader());
    }

    @Override public String name() { return delegate.name(); }
    @Override public boolean bulk() { return delegate.bulk(); }
    @Override public Optional<String> unavailableReason() { return delegate.unavailableReason(); }

    @Override
    public RowCursor open(ResultSet resultSet) throws SQLException {
        opened.incrementAndGet();
        return delegate.open(resultSet);
    }
}
