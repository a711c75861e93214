package io.quackjvm.moduletests;

import com.googlecode.cqengine.attribute.SimpleAttribute;
import io.quackjvm.moduletests.model.Part;
import io.quackjvm.testkit.ObjectLayoutContract;

import java.util.List;

/** The provider test kit's layout contract over {@link Part}s, for each of our layouts. */
abstract class PartLayoutContract extends ObjectLayoutContract<Part, Long> {

    @Override
    protected SimpleAttribute<Part, Long> primaryKey() {
        return Part.ID;
    }

    @Override
    protected List<Part> sampleObjects() {
        return List.of(Part.of(1), new Part(-5, "", "grüße ☃", -0.0, Integer.MIN_VALUE),
                new Part(Long.MAX_VALUE, null, null, Double.MAX_VALUE, 0),
                new Part(Long.MIN_VALUE, "NaN", "x", Double.NaN, Integer.MAX_VALUE));
    }
}
