package io.quackjvm.storage.blob;

import com.googlecode.cqengine.persistence.support.serialization.PersistenceConfig;
import com.googlecode.cqengine.persistence.support.serialization.KryoSerializer;
import com.googlecode.cqengine.persistence.support.serialization.PojoSerializer;

import io.quackjvm.api.spi.AllowedClasses;

import java.lang.reflect.Constructor;

/** Chooses the serializer for a class, honouring CQEngine's {@link PersistenceConfig} annotation. */
final class Serializers {

    private Serializers() {
    }

    @SuppressWarnings("unchecked")
    static <O> PojoSerializer<O> forClass(Class<O> objectType, AllowedClasses allowed) {
        PersistenceConfig config = objectType.getAnnotation(PersistenceConfig.class);
        if (config == null || config.serializer() == KryoSerializer.class) {
            // CQEngine's own KryoSerializer is built on Kryo 5.0.0-RC1 and kryo-serializers, which fail on Java 17;
            // the default here is our own serializer on a current Kryo.
            return new Kryo5Serializer<>(objectType, config != null && config.polymorphic(), allowed);
        }
        Class<? extends PojoSerializer> type = config.serializer();
        try {
            try {
                Constructor<? extends PojoSerializer> c = type.getConstructor(Class.class, PersistenceConfig.class);
                return c.newInstance(objectType, config);
            } catch (NoSuchMethodException e) {
                return type.getConstructor().newInstance();
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalArgumentException("Cannot create serializer " + type.getName() + " named by @PersistenceConfig "
                    + "on " + objectType.getName() + ": it needs a public constructor taking (Class, PersistenceConfig) "
                    + "or none; on the module path its package must also be exported to io.quackjvm.storage (" + e + ")", e);
        }
    }
}
