package io.quackjvm.it.reliability;

import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.TransactionalIndexedCollection;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBFlags;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static com.googlecode.cqengine.query.QueryFactory.enableFlags;
import static com.googlecode.cqengine.query.QueryFactory.queryOptions;

/**
 * The child JVM of {@link ReliabilityLargeWriteTest}: opens a file holding versions 1 of the keys
 * {@code [0, stored)}, makes one large write through one write path, prints {@code ACK} once the call has returned
 * and then waits to be killed with SIGKILL (it exits by itself when its standard input closes).
 *
 * <p>Arguments: database file, write path ({@link LargeWrite.Via}), keys replaced, keys added, stored keys, and
 * DuckDB's {@code checkpoint_threshold} (or {@code default}).
 */
public final class LargeWriteWorker {

    private LargeWriteWorker() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        LargeWrite write = new LargeWrite(LargeWrite.Via.valueOf(args[1]), Integer.parseInt(args[2]),
                Integer.parseInt(args[3]), Integer.parseInt(args[4]), args[5]);
        PartStore store = write.open(file);
        run(store, write);
        System.out.println("ACK");
        System.out.flush();
        InputStream in = System.in;
        try {
            while (in.read() >= 0) {
                // the parent never writes; it kills this JVM, or closes the stream when it is gone
            }
        } catch (IOException ignored) {
            // treated as EOF
        }
        Runtime.getRuntime().halt(3);
    }

    static void run(PartStore store, LargeWrite write) {
        List<Part> removes = new ArrayList<>();
        for (int key = 0; key < write.replaced(); key++) {
            removes.add(Part.of(key, 1));
        }
        List<Part> adds = write.adds();
        switch (write.via()) {
            case ADD_ALL -> store.parts.addAll(adds);
            case UPDATE -> store.parts.update(removes, adds);
            case BULK_IMPORT -> {
                // the flag promises new keys: the replaced objects leave in the same request
                store.parts.update(removes, adds, queryOptions(enableFlags(DuckDBFlags.BULK_IMPORT)));
            }
            case BULK_WRITER -> {
                try (DuckDBBulkWriter<Part> writer = store.persistence.bulkWriter()) {
                    writer.addAll(adds);
                    writer.commit();
                }
            }
            case TRANSACTIONAL -> {
                IndexedCollection<Part> tx = new TransactionalIndexedCollection<>(Part.class, store.persistence);
                tx.update(removes, adds);
            }
        }
    }
}
