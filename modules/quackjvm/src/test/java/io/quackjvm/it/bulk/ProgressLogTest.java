package io.quackjvm.it.bulk;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.Progress;
import io.quackjvm.it.Car;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Progress goes to the listener when one is set and to the log only when none is: a user printing progress from a
 * listener sees each step once. The log's interval is 5 seconds, so both loads below last a little longer than
 * that (run side by side, so the test pays it once); slf4j-simple, this module's test provider, writes to
 * {@code System.err}, which the test captures.
 */
class ProgressLogTest {

    private static final long LONGER_THAN_THE_LOG_INTERVAL_MS = 5_300;

    @Test
    void aLoadWithAListenerIsReportedToItAloneAndOneWithoutIsLogged() throws Exception {
        List<Progress> heard = new CopyOnWriteArrayList<>();
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try (DuckDBPersistence<Car, Integer> listened = DuckDBPersistence.builder(Car.CAR_ID).name("listened")
                .progressListener(heard::add).build();
             DuckDBPersistence<Car, Integer> logged = DuckDBPersistence.builder(Car.CAR_ID).name("logged").build()) {
            IndexedCollection<Car> listenedCars = new ConcurrentIndexedCollection<>(listened);
            IndexedCollection<Car> loggedCars = new ConcurrentIndexedCollection<>(logged);
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            try (DuckDBBulkWriter<Car> a = listened.bulkWriter(); DuckDBBulkWriter<Car> b = logged.bulkWriter()) {
                a.add(Car.of(1));
                b.add(Car.of(1));
                Thread.sleep(LONGER_THAN_THE_LOG_INTERVAL_MS);
                a.add(Car.of(2));
                b.add(Car.of(2));
                a.commit();
                b.commit();
            } finally {
                System.setErr(err);
            }
            assertEquals(2, listenedCars.size());
            assertEquals(2, loggedCars.size());
        }
        String log = captured.toString(StandardCharsets.UTF_8);
        List<Progress> finished = heard.stream().filter(Progress::finished).toList();
        assertEquals(1, finished.size(), heard.toString());
        assertTrue(finished.get(0).elapsed().toMillis() >= LONGER_THAN_THE_LOG_INTERVAL_MS, finished.toString());
        // Without a listener the load is logged (so the capture works), ...
        assertTrue(log.contains("bulk load of collection 'logged': 2 rows"), log);
        // ... and with one it is not: the listener was told, the log says nothing of that collection.
        assertTrue(!log.contains("collection 'listened'"), log);
    }
}
