package io.quackjvm.bench.harness;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.DefaultInstantiatorStrategy;
import io.quackjvm.bench.model.Car;
import org.objenesis.strategy.StdInstantiatorStrategy;

/**
 * A car as bytes, the way quackjvm's blob layout writes one: the same Kryo 5 settings and the one-byte header.
 * Used by every raw DuckDB floor (harness and JMH) so that "ours against raw" compares like with like. One
 * instance per thread: it reuses its Kryo and its output buffer.
 */
public final class CarCodec {

    private final Kryo kryo = new Kryo();
    private final Output output = new Output(256, -1);

    public CarCodec() {
        kryo.setRegistrationRequired(false);
        kryo.setReferences(true);
        // The JDK collection-view serializers quackjvm also registers do not matter for Car.
        kryo.setInstantiatorStrategy(new DefaultInstantiatorStrategy(new StdInstantiatorStrategy()));
    }

    public byte[] serialize(Car car) {
        output.reset();
        output.writeByte(0);
        kryo.writeObject(output, car);
        return output.toBytes();
    }

    public Car deserialize(byte[] bytes) {
        Input in = new Input(bytes);
        in.readByte();
        return kryo.readObject(in, Car.class);
    }
}
