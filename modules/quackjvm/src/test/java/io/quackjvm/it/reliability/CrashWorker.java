package io.quackjvm.it.reliability;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The child JVM of {@link ReliabilityCrashTest}: opens the file, then runs random requests for ever, logging each
 * one before the call and acknowledging it after the call returned (see {@link Request} for the protocol). The
 * parent kills it with SIGKILL. It exits by itself when its standard input closes (the parent is gone).
 *
 * <p>Arguments: database file, ack log, seed, key space.
 */
public final class CrashWorker {

    private final FileOutputStream log;
    private final Random random;
    private final int keySpace;
    private final Map<Integer, Integer> model = new HashMap<>();
    private long seq;

    private CrashWorker(FileOutputStream log, long seed, int keySpace) {
        this.log = log;
        this.random = new Random(seed);
        this.keySpace = keySpace;
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        Path logFile = Path.of(args[1]);
        long seed = Long.parseLong(args[2]);
        int keySpace = Integer.parseInt(args[3]);
        Thread watchdog = new Thread(() -> {
            try {
                InputStream in = System.in;
                while (in.read() >= 0) {
                    // the parent never writes; EOF means it is gone
                }
            } catch (IOException ignored) {
                // treated as EOF
            }
            Runtime.getRuntime().halt(3);
        }, "parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        try (FileOutputStream log = new FileOutputStream(logFile.toFile(), true);
             PartStore store = new PartStore(file)) {
            CrashWorker worker = new CrashWorker(log, seed, keySpace);
            for (Part p : store.contents().values()) {
                worker.model.put(p.id(), p.version());
            }
            worker.write("R\n");
            while (true) {
                Request r = worker.next();
                worker.write(r.beginLine());
                worker.run(store, r);
                r.applyTo(worker.model);
                worker.write("A " + r.seq() + "\n");
            }
        }
    }

    /** One write call per line: a kill cannot interleave two lines, and leaves at most one partial last line. */
    private void write(String line) throws IOException {
        log.write(line.getBytes(StandardCharsets.US_ASCII));
    }

    private void run(PartStore store, Request r) {
        switch (r.kind()) {
            case ADD -> store.parts.add(r.adds().get(0));
            case ADD_ALL_SMALL, ADD_ALL_LARGE -> store.parts.addAll(r.adds());
            case REMOVE -> store.parts.remove(r.removes().get(0));
            case REMOVE_ALL -> store.parts.removeAll(r.removes());
            case UPDATE -> store.parts.update(r.removes(), r.adds());
            case OPTIMIZE -> store.persistence.optimize();
            case COMPACT -> store.persistence.compact();
        }
    }

    private Request next() {
        seq++;
        int dice = random.nextInt(100);
        if (dice < 22 || model.isEmpty()) {
            return new Request(seq, Request.Kind.ADD, List.of(), List.of(fresh(randomKey())));
        } else if (dice < 40) {
            return new Request(seq, Request.Kind.ADD_ALL_SMALL, List.of(), freshBatch(2 + random.nextInt(14)));
        } else if (dice < 48) {
            return new Request(seq, Request.Kind.ADD_ALL_LARGE, List.of(), freshBatch(100 + random.nextInt(400)));
        } else if (dice < 60) {
            return new Request(seq, Request.Kind.REMOVE, List.of(storedOrStale(existingKey())), List.of());
        } else if (dice < 68) {
            List<Part> removes = new ArrayList<>();
            for (int key : existingKeys(2 + random.nextInt(40))) {
                removes.add(storedOrStale(key));
            }
            return new Request(seq, Request.Kind.REMOVE_ALL, removes, List.of());
        } else if (dice < 88) {
            // replace a few stored objects by their next version, and add a few new ones, in one request
            List<Part> removes = new ArrayList<>();
            List<Part> adds = new ArrayList<>();
            Set<Integer> keys = existingKeys(1 + random.nextInt(random.nextBoolean() ? 8 : 60));
            for (int key : keys) {
                removes.add(Part.of(key, model.get(key)));
                adds.add(fresh(key));
            }
            for (int i = random.nextInt(4); i > 0; i--) {
                int key = randomKey();
                if (keys.add(key)) {
                    adds.add(fresh(key));
                }
            }
            return new Request(seq, Request.Kind.UPDATE, removes, adds);
        } else if (dice < 94) {
            return new Request(seq, Request.Kind.OPTIMIZE, List.of(), List.of());
        }
        return new Request(seq, Request.Kind.COMPACT, List.of(), List.of());
    }

    private int randomKey() {
        return random.nextInt(keySpace);
    }

    private int existingKey() {
        // model is a HashMap; pick by probing random keys, falling back to the first entry
        for (int i = 0; i < 50; i++) {
            int key = randomKey();
            if (model.containsKey(key)) {
                return key;
            }
        }
        return model.keySet().iterator().next();
    }

    private Set<Integer> existingKeys(int n) {
        Set<Integer> keys = new LinkedHashSet<>();
        for (int i = 0; i < n && keys.size() < model.size(); i++) {
            keys.add(existingKey());
        }
        return keys;
    }

    /** The stored object, or (one time in ten) an outdated version of it, whose removal must change nothing. */
    private Part storedOrStale(int key) {
        int version = model.get(key);
        return Part.of(key, random.nextInt(10) == 0 ? version - 1 : version);
    }

    /** A version of the key never stored before. */
    private Part fresh(int key) {
        return Part.of(key, model.getOrDefault(key, 0) + 1 + random.nextInt(3));
    }

    private List<Part> freshBatch(int n) {
        Set<Integer> keys = new LinkedHashSet<>();
        while (keys.size() < Math.min(n, keySpace)) {
            keys.add(randomKey());
        }
        List<Part> out = new ArrayList<>();
        for (int key : keys) {
            out.add(fresh(key));
        }
        return out;
    }
}
