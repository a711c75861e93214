package io.quackjvm.api.internal.collection;

import io.quackjvm.api.spi.Column;
import io.quackjvm.api.spi.ObjectTable;
import io.quackjvm.api.spi.RowSource;
import io.quackjvm.api.spi.RowWriter;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ColumnTest {

    @Test
    void compressionIsOptionalAndMustBeAMethodName() {
        assertNull(new Column("c", "BLOB").compression());
        assertEquals("uncompressed", new Column("c", "BLOB", "uncompressed").compression());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Column("c", "BLOB", "fsst; DROP TABLE x"));
        assertTrue(e.getMessage().contains("column 'c'") && e.getMessage().contains("compression method"),
                e.getMessage());
    }

    @Test
    void theDefaultReconcileComparesNamesAndTypesNotCompression() {
        ObjectTable<String> layout = new ObjectTable<>() {
            @Override
            public List<Column> columns() {
                return List.of(new Column("object", "BLOB", "uncompressed"));
            }

            @Override
            public void write(String object, RowWriter row) {
            }

            @Override
            public String read(RowSource row) {
                return null;
            }
        };
        assertEquals(List.of(), layout.reconcile(List.of(new Column("object", "BLOB"))));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> layout.reconcile(List.of(new Column("object", "VARCHAR"))));
        assertTrue(e.getMessage().contains("VARCHAR"), e.getMessage());
    }
}
