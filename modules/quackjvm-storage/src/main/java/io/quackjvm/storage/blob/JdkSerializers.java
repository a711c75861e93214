package io.quackjvm.storage.blob;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.DefaultSerializers;
import com.esotericsoftware.kryo.serializers.MapSerializer;
import com.esotericsoftware.kryo.serializers.TimeSerializers;
import com.esotericsoftware.kryo.util.MapReferenceResolver;

import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.net.URI;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Serializers for the JDK value types and collection views that Kryo would otherwise take apart field by field
 * (refused on Java 17+ without {@code --add-opens}) or rebuild inexactly. Every one goes through public API only:
 * a {@code UUID} is two longs, a view is its elements and is rebuilt through the factory that made it.
 *
 * <p>They are added as default serializers, never registered, so no registration ID changes, and each writes the
 * bytes earlier versions wrote for every value those versions read back exactly. Where a value needs more than
 * the old bytes held (a sorted view's comparator, {@code Stream.toList()}'s tolerance of nulls, a later offset at
 * a DST overlap, a locale's script or extensions), the extra comes behind a marker that old data never contains,
 * so rows written before still read back.
 */
final class JdkSerializers {

    /** Written where old data has a size (never negative): the view's extra description follows. */
    private static final int EXTENDED = -1;

    private JdkSerializers() {
    }

    static void addTo(Kryo kryo) {
        // Kryo has exact, public-API serializers for these but does not make them defaults.
        kryo.addDefaultSerializer(UUID.class, new DefaultSerializers.UUIDSerializer());
        kryo.addDefaultSerializer(URI.class, new DefaultSerializers.URISerializer());
        kryo.addDefaultSerializer(Pattern.class, new DefaultSerializers.PatternSerializer());
        kryo.addDefaultSerializer(ZonedDateTime.class, new ZonedDateTimeSerializer());
        kryo.addDefaultSerializer(Locale.class, new LocaleSerializer());
        kryo.addDefaultSerializer(EnumMap.class, new EnumMapSerializer());

        // Lists, sets and collections: written as their elements (the format since the first release) and read
        // back as the same kind of view.
        kryo.addDefaultSerializer(Arrays.asList().getClass(), new ViewSerializer((l, x) -> Arrays.asList(l.toArray())));
        kryo.addDefaultSerializer(Collections.unmodifiableList(new ArrayList<>()).getClass(),
                new ViewSerializer((l, x) -> Collections.unmodifiableList(l)));
        kryo.addDefaultSerializer(Collections.unmodifiableList(new LinkedList<>()).getClass(),
                new ViewSerializer((l, x) -> Collections.unmodifiableList(new LinkedList<>(l))));
        kryo.addDefaultSerializer(Collections.unmodifiableCollection(new ArrayList<>()).getClass(),
                new ViewSerializer((l, x) -> Collections.unmodifiableCollection(l)));
        kryo.addDefaultSerializer(Collections.unmodifiableSet(new HashSet<>()).getClass(),
                new ViewSerializer((l, x) -> Collections.unmodifiableSet(new LinkedHashSet<>(l))));
        kryo.addDefaultSerializer(Collections.unmodifiableSortedSet(new TreeSet<>()).getClass(), new ViewSerializer(
                JdkSerializers::comparatorOf, (l, c) -> Collections.unmodifiableSortedSet(treeSet(l, c))));
        kryo.addDefaultSerializer(Collections.unmodifiableNavigableSet(new TreeSet<>()).getClass(), new ViewSerializer(
                JdkSerializers::comparatorOf, (l, c) -> Collections.unmodifiableNavigableSet(treeSet(l, c))));
        kryo.addDefaultSerializer(Collections.emptyNavigableSet().getClass(),
                new ViewSerializer((l, x) -> Collections.emptyNavigableSet()));
        kryo.addDefaultSerializer(List.of().getClass(), new ViewSerializer(JdkSerializers::nullsAllowed,
                (l, nulls) -> nulls != null ? l.stream().toList() : List.copyOf(l)));
        kryo.addDefaultSerializer(List.of(1).getClass(), new ViewSerializer((l, x) -> List.copyOf(l)));
        kryo.addDefaultSerializer(Set.of().getClass(), new ViewSerializer((l, x) -> Set.copyOf(l)));
        kryo.addDefaultSerializer(Set.of(1).getClass(), new ViewSerializer((l, x) -> Set.copyOf(l)));
        kryo.addDefaultSerializer(Collections.emptyList().getClass(), new ViewSerializer((l, x) -> Collections.emptyList()));
        kryo.addDefaultSerializer(Collections.emptySet().getClass(), new ViewSerializer((l, x) -> Collections.emptySet()));
        kryo.addDefaultSerializer(Collections.singletonList(1).getClass(),
                new ViewSerializer((l, x) -> Collections.singletonList(l.get(0))));
        kryo.addDefaultSerializer(Collections.singleton(1).getClass(),
                new ViewSerializer((l, x) -> Collections.singleton(l.get(0))));

        // Maps. Map.of keeps Kryo's own format; only the object a back-reference resolves to is corrected.
        kryo.addDefaultSerializer(Map.of().getClass(), new ImmutableMapSerializer());
        kryo.addDefaultSerializer(Map.of(1, 1).getClass(), new ImmutableMapSerializer());
        kryo.addDefaultSerializer(Collections.unmodifiableMap(new HashMap<>()).getClass(), new MapViewSerializer(
                m -> null, c -> new LinkedHashMap<>(), Collections::unmodifiableMap));
        kryo.addDefaultSerializer(Collections.unmodifiableSortedMap(new TreeMap<>()).getClass(), new MapViewSerializer(
                JdkSerializers::comparatorOf, JdkSerializers::treeMap, m -> Collections.unmodifiableSortedMap((TreeMap<Object, Object>) m)));
        kryo.addDefaultSerializer(Collections.unmodifiableNavigableMap(new TreeMap<>()).getClass(), new MapViewSerializer(
                JdkSerializers::comparatorOf, JdkSerializers::treeMap, m -> Collections.unmodifiableNavigableMap((TreeMap<Object, Object>) m)));
        kryo.addDefaultSerializer(Collections.emptyNavigableMap().getClass(), new MapViewSerializer(
                m -> null, c -> new LinkedHashMap<>(), m -> Collections.emptyNavigableMap()));
    }

    private static Object comparatorOf(Object sorted) {
        return sorted instanceof java.util.SortedSet<?> s ? s.comparator() : ((java.util.SortedMap<?, ?>) sorted).comparator();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static TreeSet<Object> treeSet(List<Object> elements, Object comparator) {
        TreeSet<Object> set = new TreeSet<>((Comparator) comparator);
        set.addAll(elements);
        return set;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Map<Object, Object> treeMap(Object comparator) {
        return new TreeMap<>((Comparator) comparator);
    }

    /**
     * {@code Stream.toList()} gives the same class as {@code List.of(a, b, c)} but tolerates null elements (and
     * {@code contains(null)}); {@code List.copyOf} returns its argument only for the null-hostile kind.
     */
    private static Object nullsAllowed(Object list) {
        try {
            return List.copyOf((List<?>) list) == list ? null : Boolean.TRUE;
        } catch (NullPointerException e) {
            return Boolean.TRUE;
        }
    }

    /**
     * Writes a collection as its elements and rebuilds the view from them. A view described by more than its
     * elements (a comparator, tolerance of nulls) writes {@link #EXTENDED} and that description first.
     */
    static final class ViewSerializer extends Serializer<Collection<?>> {
        private final Function<Object, Object> description;
        private final BiFunction<List<Object>, Object, Collection<?>> rebuild;

        ViewSerializer(BiFunction<List<Object>, Object, Collection<?>> rebuild) {
            this(c -> null, rebuild);
        }

        ViewSerializer(Function<Object, Object> description, BiFunction<List<Object>, Object, Collection<?>> rebuild) {
            this.description = description;
            this.rebuild = rebuild;
            setImmutable(true);
        }

        @Override
        public void write(Kryo kryo, Output output, Collection<?> collection) {
            Object extra = description.apply(collection);
            if (extra != null) {
                output.writeVarInt(EXTENDED, true);
                kryo.writeClassAndObject(output, extra);
            }
            output.writeVarInt(collection.size(), true);
            for (Object element : collection) {
                kryo.writeClassAndObject(output, element);
            }
        }

        @Override
        public Collection<?> read(Kryo kryo, Input input, Class<? extends Collection<?>> type) {
            int size = input.readVarInt(true);
            Object extra = null;
            if (size == EXTENDED) {
                extra = kryo.readClassAndObject(input);
                size = input.readVarInt(true);
            }
            List<Object> elements = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                elements.add(kryo.readClassAndObject(input));
            }
            return rebuild.apply(elements, extra);
        }
    }

    /** {@link ViewSerializer} for maps: the entries, read into a fresh map the view is rebuilt around. */
    static final class MapViewSerializer extends Serializer<Map<?, ?>> {
        private final Function<Object, Object> description;
        private final Function<Object, Map<Object, Object>> newMap;
        private final Function<Map<Object, Object>, Map<?, ?>> rebuild;

        MapViewSerializer(Function<Object, Object> description, Function<Object, Map<Object, Object>> newMap,
                          Function<Map<Object, Object>, Map<?, ?>> rebuild) {
            this.description = description;
            this.newMap = newMap;
            this.rebuild = rebuild;
            setImmutable(true);
        }

        @Override
        public void write(Kryo kryo, Output output, Map<?, ?> map) {
            Object extra = description.apply(map);
            if (extra != null) {
                output.writeVarInt(EXTENDED, true);
                kryo.writeClassAndObject(output, extra);
            }
            output.writeVarInt(map.size(), true);
            for (Map.Entry<?, ?> e : map.entrySet()) {
                kryo.writeClassAndObject(output, e.getKey());
                kryo.writeClassAndObject(output, e.getValue());
            }
        }

        @Override
        public Map<?, ?> read(Kryo kryo, Input input, Class<? extends Map<?, ?>> type) {
            int size = input.readVarInt(true);
            Object extra = null;
            if (size == EXTENDED) {
                extra = kryo.readClassAndObject(input);
                size = input.readVarInt(true);
            }
            Map<Object, Object> entries = newMap.apply(extra);
            for (int i = 0; i < size; i++) {
                Object key = kryo.readClassAndObject(input);
                entries.put(key, kryo.readClassAndObject(input));
            }
            return rebuild.apply(entries);
        }
    }

    /**
     * Kryo's format for {@code Map.of} maps, whose reader fills a HashMap, registers it for back-references and
     * only then copies it into an immutable map: a second reference to the same map in one object came back as
     * that mutable HashMap. This registers the immutable map instead.
     */
    static final class ImmutableMapSerializer extends MapSerializer<Map<Object, Object>> {
        ImmutableMapSerializer() {
            setKeysCanBeNull(false);
            setValuesCanBeNull(false);
            setImmutable(true);
        }

        @Override
        protected Map<Object, Object> create(Kryo kryo, Input input, Class<? extends Map<Object, Object>> type, int size) {
            return new HashMap<>();
        }

        @Override
        public Map<Object, Object> read(Kryo kryo, Input input, Class<? extends Map<Object, Object>> type) {
            int id = kryo.getReferenceResolver() instanceof ReadIdResolver r ? r.lastReadId() : -1;
            Map<Object, Object> entries = super.read(kryo, input, type);
            Map<Object, Object> map = Map.copyOf(entries);
            if (id >= 0 && kryo.getReferenceResolver().getReadObject(Map.class, id) == entries) {
                kryo.getReferenceResolver().setReadObject(id, map);
            }
            return map;
        }
    }

    /** Kryo's reference resolver, telling which reference ID the object being read has. */
    static final class ReadIdResolver extends MapReferenceResolver {
        /** Called as a serializer starts reading: the ID Kryo has just reserved for its object. */
        int lastReadId() {
            return readObjects.size() - 1;
        }
    }

    /**
     * Kryo's format (date, time, zone ID), which rebuilds the earlier offset when a local time occurs twice (at
     * the end of summer time). A value at the later offset writes a null zone ID, then the zone and the offset.
     */
    static final class ZonedDateTimeSerializer extends Serializer<ZonedDateTime> {
        private final TimeSerializers.LocalDateSerializer dates = new TimeSerializers.LocalDateSerializer();
        private final TimeSerializers.LocalTimeSerializer times = new TimeSerializers.LocalTimeSerializer();

        ZonedDateTimeSerializer() {
            setImmutable(true);
        }

        @Override
        public void write(Kryo kryo, Output output, ZonedDateTime value) {
            dates.write(kryo, output, value.toLocalDate());
            times.write(kryo, output, value.toLocalTime());
            if (value.equals(value.withEarlierOffsetAtOverlap())) {
                output.writeString(value.getZone().getId());
            } else {
                output.writeString(null);
                output.writeString(value.getZone().getId());
                output.writeVarInt(value.getOffset().getTotalSeconds(), false);
            }
        }

        @Override
        public ZonedDateTime read(Kryo kryo, Input input, Class<? extends ZonedDateTime> type) {
            LocalDate date = dates.read(kryo, input, LocalDate.class);
            LocalTime time = times.read(kryo, input, LocalTime.class);
            String zone = input.readString();
            if (zone != null) {
                return ZonedDateTime.of(date, time, ZoneId.of(zone));
            }
            ZoneId region = ZoneId.of(input.readString());
            ZoneOffset offset = ZoneOffset.ofTotalSeconds(input.readVarInt(false));
            return ZonedDateTime.ofLocal(date.atTime(time), region, offset);
        }
    }

    /**
     * Kryo's format (language, country, variant), which drops a script and extensions ({@code sr-Latn-RS},
     * {@code th-TH-u-nu-thai}). A locale with either writes a null language, then its language tag.
     */
    static final class LocaleSerializer extends Serializer<Locale> {
        private final DefaultSerializers.LocaleSerializer kryoFormat = new DefaultSerializers.LocaleSerializer();

        LocaleSerializer() {
            setImmutable(true);
        }

        @Override
        public void write(Kryo kryo, Output output, Locale locale) {
            if (locale.getScript().isEmpty() && !locale.hasExtensions()) {
                kryoFormat.write(kryo, output, locale);
            } else {
                output.writeString(null);
                output.writeString(locale.toLanguageTag());
            }
        }

        @Override
        public Locale read(Kryo kryo, Input input, Class<? extends Locale> type) {
            String language = input.readString();
            if (language == null) {
                return Locale.forLanguageTag(input.readString());
            }
            String country = input.readString();
            String variant = input.readString();
            // what Kryo's reader does with the three parts, without its cache of constants
            return new Locale(language, country, variant);
        }
    }

    /**
     * An {@code EnumMap}: its key type, then its entries (key ordinal, value). The key type of an empty map is
     * not public; it is learnt by writing the map to a discarding {@link ObjectOutputStream}, which names the
     * enum class it holds.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static final class EnumMapSerializer extends Serializer<EnumMap> {

        @Override
        public void write(Kryo kryo, Output output, EnumMap map) {
            Class<? extends Enum> keyType = map.isEmpty()
                    ? keyTypeOfEmpty(map) : ((Enum<?>) map.keySet().iterator().next()).getDeclaringClass();
            kryo.writeClass(output, keyType);
            output.writeVarInt(map.size(), true);
            for (Object o : map.entrySet()) {
                Map.Entry<Enum<?>, Object> e = (Map.Entry<Enum<?>, Object>) o;
                output.writeVarInt(e.getKey().ordinal(), true);
                kryo.writeClassAndObject(output, e.getValue());
            }
        }

        @Override
        public EnumMap read(Kryo kryo, Input input, Class<? extends EnumMap> type) {
            Class keyType = kryo.readClass(input).getType();
            EnumMap map = new EnumMap(keyType);
            kryo.reference(map);
            Object[] constants = keyType.getEnumConstants();
            int size = input.readVarInt(true);
            for (int i = 0; i < size; i++) {
                Object key = constants[input.readVarInt(true)];
                map.put(key, kryo.readClassAndObject(input));
            }
            return map;
        }

        private static Class<? extends Enum> keyTypeOfEmpty(EnumMap<?, ?> map) {
            class KeyTypeFinder extends ObjectOutputStream {
                Class<?> keyType;

                KeyTypeFinder() throws IOException {
                    super(OutputStream.nullOutputStream());
                }

                @Override
                protected void annotateClass(Class<?> c) {
                    if (keyType == null && c.isEnum()) {
                        keyType = c;
                    }
                }
            }
            try (KeyTypeFinder finder = new KeyTypeFinder()) {
                finder.writeObject(map);
                if (finder.keyType == null) {
                    throw new IllegalStateException("Cannot tell the key type of an empty EnumMap");
                }
                return (Class<? extends Enum>) finder.keyType;
            } catch (IOException e) {
                throw new IllegalStateException("Cannot tell the key type of an empty EnumMap: " + e, e);
            }
        }
    }
}
