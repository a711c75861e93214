package io.quackjvm.it.reliability;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One large write of {@link ReliabilityLargeWriteTest}: through {@code via}, replace the versions 1 of the keys
 * {@code [0, replaced)} by versions 2 and add versions 1 of the keys {@code [stored, stored + added)}, on a file
 * that holds versions 1 of the keys {@code [0, stored)}.
 */
record LargeWrite(Via via, int replaced, int added, int stored, String checkpointThreshold) {

    /** The write paths. */
    enum Via {
        ADD_ALL, UPDATE, BULK_IMPORT, BULK_WRITER, TRANSACTIONAL
    }

    PartStore open(Path file) {
        return "default".equals(checkpointThreshold)
                ? new PartStore(file)
                : new PartStore(file, b -> b.property("checkpoint_threshold", checkpointThreshold));
    }

    List<Part> adds() {
        List<Part> adds = new ArrayList<>(replaced + added);
        for (int key = 0; key < replaced; key++) {
            adds.add(Part.of(key, 2));
        }
        for (int key = stored; key < stored + added; key++) {
            adds.add(Part.of(key, 1));
        }
        return adds;
    }

    /** Key to version, once the write is done. */
    Map<Integer, Integer> after() {
        Map<Integer, Integer> model = new HashMap<>();
        for (int key = 0; key < stored + added; key++) {
            model.put(key, key < replaced ? 2 : 1);
        }
        return model;
    }

    List<String> args(Path file) {
        return List.of(file.toString(), via.name(), Integer.toString(replaced), Integer.toString(added),
                Integer.toString(stored), checkpointThreshold);
    }

    @Override
    public String toString() {
        return via + " replacing " + replaced + " and adding " + added + " of " + stored + " stored (checkpoint_threshold "
                + checkpointThreshold + ")";
    }
}
