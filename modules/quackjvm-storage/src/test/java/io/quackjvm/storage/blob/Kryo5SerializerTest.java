package io.quackjvm.storage.blob;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.Month;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Currency;
import java.util.Date;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The blob layout's Kryo serializer on JDK values, without any {@code --add-opens}. */
class Kryo5SerializerTest {

    private final Kryo5Serializer<Object> serializer = new Kryo5Serializer<>(Object.class, true, io.quackjvm.api.spi.AllowedClasses.NONE);

    /**
     * Bytes written by the serializer before the JDK value types were added (commit f816a6a), for values it could
     * already store: rows stored then must read back, and the same values must still be written the same way.
     */
    static Stream<Arguments> storedBefore() {
        return Stream.of(
                golden("mixed ArrayList", new ArrayList<>(List.of("a", 1, 2L, 3.5, DayOfWeek.MONDAY, true, 'c')),
                        "0101006a6176612e7574696c2e41727261794c6973f401080301826102020904"
                        + "0a0000000000000c4001016a6176612e74696d652e4461794f66576565eb0105"
                        + "01076300"),
                golden("HashMap", new HashMap<>(Map.of("k", List.of(1, 2, 3))),
                        "0101006a6176612e7574696c2e486173684d61f001020301826b01016a617661"
                        + "2e7574696c2e496d6d757461626c65436f6c6c656374696f6e73244c697374ce"
                        + "0103020202040206"),
                golden("TreeMap", new TreeMap<>(Map.of(2, "b", 1, "a")),
                        "0101006a6176612e7574696c2e547265654d61f0010300020203018261020403"
                        + "018262"),
                golden("Arrays.asList", Arrays.asList("x", null),
                        "0101006a6176612e7574696c2e4172726179732441727261794c6973f4010203"
                        + "01827800"),
                golden("unmodifiableList", Collections.unmodifiableList(new ArrayList<>(List.of(1))),
                        "0101006a6176612e7574696c2e436f6c6c656374696f6e7324556e6d6f646966"
                        + "6961626c6552616e646f6d4163636573734c6973f401010202"),
                golden("unmodifiableList LinkedList", Collections.unmodifiableList(new LinkedList<>(List.of(1))),
                        "0101006a6176612e7574696c2e436f6c6c656374696f6e7324556e6d6f646966"
                        + "6961626c654c6973f401010202"),
                golden("unmodifiableSet", Collections.unmodifiableSet(new LinkedHashSet<>(List.of(2, 1))),
                        "0101006a6176612e7574696c2e436f6c6c656374696f6e7324556e6d6f646966"
                        + "6961626c655365f4010202040202"),
                golden("unmodifiableSortedSet", Collections.unmodifiableSortedSet(new TreeSet<>(List.of(2, 1))),
                        "0101006a6176612e7574696c2e436f6c6c656374696f6e7324556e6d6f646966"
                        + "6961626c65536f727465645365f4010202020204"),
                golden("List.of()", List.of(),
                        "0101006a6176612e7574696c2e496d6d757461626c65436f6c6c656374696f6e"
                        + "73244c697374ce0100"),
                golden("List.of(1, 2)", List.of(1, 2),
                        "0101006a6176612e7574696c2e496d6d757461626c65436f6c6c656374696f6e"
                        + "73244c69737431b2010202020204"),
                golden("List.of(1, 2, 3)", List.of(1, 2, 3),
                        "0101006a6176612e7574696c2e496d6d757461626c65436f6c6c656374696f6e"
                        + "73244c697374ce0103020202040206"),
                golden("Set.of(7)", Set.of(7),
                        "0101006a6176612e7574696c2e496d6d757461626c65436f6c6c656374696f6e"
                        + "732453657431b20101020e"),
                golden("Map.of(k, v)", Map.of("k", 1),
                        "0101006a6176612e7574696c2e496d6d757461626c65436f6c6c656374696f6e"
                        + "73244d6170b101020301826b0202"),
                golden("emptyList", Collections.emptyList(),
                        "0101006a6176612e7574696c2e436f6c6c656374696f6e7324456d7074794c69"
                        + "73f40100"),
                golden("singletonList", Collections.singletonList("s"),
                        "0101006a6176612e7574696c2e436f6c6c656374696f6e732453696e676c6574"
                        + "6f6e4c6973f4010103018273"),
                golden("singletonMap", Collections.singletonMap("k", "v"),
                        "0101006a6176612e7574696c2e436f6c6c656374696f6e732453696e676c6574"
                        + "6f6e4d61f0010301826b03018276"),
                golden("Instant", Instant.ofEpochSecond(1_700_000_000L, 5),
                        "0101006a6176612e74696d652e496e7374616ef40180e2cfaa0605"),
                golden("LocalDate", LocalDate.of(2024, 2, 29),
                        "0101006a6176612e74696d652e4c6f63616c446174e501e80f021d"),
                golden("LocalDateTime", LocalDateTime.of(2024, 2, 29, 13, 14, 15, 16),
                        "0101006a6176612e74696d652e4c6f63616c4461746554696de501e80f021d0d"
                        + "0e0f10"),
                golden("ZonedDateTime", ZonedDateTime.of(2024, 7, 1, 12, 0, 0, 0, ZoneId.of("Europe/Paris")),
                        "0101006a6176612e74696d652e5a6f6e65644461746554696de501e80f0701f3"
                        + "4575726f70652f50617269f3"),
                golden("OffsetDateTime", OffsetDateTime.of(2024, 7, 1, 12, 0, 0, 0, ZoneOffset.ofHours(2)),
                        "0101006a6176612e74696d652e4f66667365744461746554696de501e80f0701"
                        + "f308"),
                golden("Duration", Duration.ofMillis(1500),
                        "0101006a6176612e74696d652e4475726174696fee01010000000000000080ca"
                        + "b5ee01"),
                golden("BigDecimal", new BigDecimal("-1.50"),
                        "0101006a6176612e6d6174682e426967446563696d61ec0103ff6a04"),
                golden("BigInteger", BigInteger.TWO.pow(70),
                        "0101006a6176612e6d6174682e426967496e74656765f2010a40000000000000"
                        + "0000"),
                golden("Optional", Optional.of("o"),
                        "0101006a6176612e7574696c2e4f7074696f6e61ec010301826f"),
                golden("EnumSet", EnumSet.of(DayOfWeek.MONDAY, DayOfWeek.SUNDAY),
                        "0101006a6176612e7574696c2e526567756c6172456e756d5365f40101016a61"
                        + "76612e74696d652e4461794f66576565eb020107"),
                golden("Date", new Date(1_700_000_000_000L),
                        "0101006a6176612e7574696c2e446174e50180d095ffbc31"),
                golden("Locale", Locale.CANADA_FRENCH,
                        "0101006a6176612e7574696c2e4c6f63616ce50166f243c181"),
                golden("Currency", Currency.getInstance("EUR"),
                        "0101006a6176612e7574696c2e43757272656e63f9014555d2")
        );
    }

    private static Arguments golden(String name, Object value, String hex) {
        return Arguments.of(name, value, hex);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("storedBefore")
    void valuesStoredBeforeReadBackAndAreWrittenTheSameWay(String name, Object value, String hex) {
        byte[] old = HexFormat.of().parseHex(hex);
        assertEquals(value, serializer.deserialize(old), name);
        assertArrayEquals(old, serializer.serialize(value), name + ": the stored format changed");
    }

    @Test
    void aSortedSetStoredBeforeNowComesBackSorted() {
        Object back = serializer.deserialize(serializer.serialize(Collections.unmodifiableSortedSet(new TreeSet<>(List.of(2, 1)))));
        assertTrue(back instanceof SortedSet<?>, "was rebuilt as a plain unmodifiable set before");
    }

    private Object roundTrip(Object value) {
        return serializer.deserialize(serializer.serialize(value));
    }

    @Test
    void uuidIsTwoLongsBehindItsClassName() {
        UUID uuid = new UUID(0x0123456789abcdefL, 0xfedcba9876543210L);
        byte[] bytes = serializer.serialize(uuid);
        String hex = HexFormat.of().formatHex(bytes);
        assertTrue(hex.endsWith("efcdab89674523011032547698badcfe"), "most then least significant, each little-endian: " + hex);
        assertEquals(uuid, serializer.deserialize(bytes));
    }

    @Test
    void aZonedDateTimeAtTheLaterOffsetOfAnOverlapKeepsItsInstant() {
        ZonedDateTime earlier = ZonedDateTime.of(2024, 10, 27, 2, 30, 0, 0, ZoneId.of("Europe/Paris"));
        ZonedDateTime later = earlier.withLaterOffsetAtOverlap();
        assertEquals(earlier, roundTrip(earlier));
        assertEquals(later, roundTrip(later));
        assertEquals(later.toInstant(), ((ZonedDateTime) roundTrip(later)).toInstant());
    }

    @Test
    void localesKeepTheirScriptAndExtensions() {
        for (Locale locale : List.of(Locale.forLanguageTag("sr-Latn-RS"), Locale.forLanguageTag("zh-Hant-TW"),
                Locale.forLanguageTag("th-TH-u-nu-thai"), Locale.forLanguageTag("de-DE-x-private"),
                new Locale("ja", "JP", "JP"), new Locale("th", "TH", "TH"), new Locale("en", "US", "WIN_1252"),
                Locale.ROOT, Locale.US)) {
            assertEquals(locale, roundTrip(locale), locale.toLanguageTag());
        }
    }

    @Test
    void sortedViewsKeepTheirComparator() {
        TreeSet<String> set = new TreeSet<>(Comparator.reverseOrder());
        set.addAll(List.of("a", "c", "b"));
        SortedSet<?> back = (SortedSet<?>) roundTrip(Collections.unmodifiableSortedSet(set));
        assertEquals(List.of("c", "b", "a"), new ArrayList<>(back));
        @SuppressWarnings("unchecked")
        Comparator<Object> comparator = (Comparator<Object>) back.comparator();
        assertTrue(comparator.compare("a", "b") > 0, "the reverse order came back");

        TreeMap<String, Integer> map = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        map.put("B", 1);
        map.put("a", 2);
        Map<?, ?> mapBack = (Map<?, ?>) roundTrip(Collections.unmodifiableSortedMap(map));
        assertEquals(map, mapBack);
        assertEquals(2, mapBack.get("A"), "the case-insensitive comparator came back with the map");
    }

    @Test
    void streamToListKeepsToleratingNulls() {
        List<?> back = (List<?>) roundTrip(Stream.of("a", null).toList());
        assertEquals(Arrays.asList("a", null), back);
        assertTrue(back.contains(null));
        assertThrows(UnsupportedOperationException.class, () -> back.remove(0));
        assertThrows(NullPointerException.class, () -> ((List<?>) roundTrip(List.of(1, 2, 3))).contains(null),
                "List.of stays null-hostile");
    }

    @Test
    void emptyEnumMapsKeepTheirKeyType() {
        EnumMap<Month, String> empty = new EnumMap<>(Month.class);
        @SuppressWarnings("unchecked")
        EnumMap<Month, String> back = (EnumMap<Month, String>) roundTrip(empty);
        assertEquals(empty, back);
        back.put(Month.MAY, "may");
        @SuppressWarnings({"unchecked", "rawtypes"})
        Map<Object, Object> raw = (Map) back;
        assertThrows(ClassCastException.class, () -> raw.put(DayOfWeek.MONDAY, "not a month"));
    }

    @Test
    void anImmutableMapReferencedTwiceComesBackAsOneImmutableMap() {
        Map<String, Integer> shared = Map.of("k", 1);
        List<?> back = (List<?>) roundTrip(new ArrayList<>(List.of(shared, shared, Map.of(), Map.of())));
        assertSame(back.get(0), back.get(1));
        assertSame(shared.getClass(), back.get(1).getClass());
        assertSame(Map.of().getClass(), back.get(3).getClass());
        assertThrows(UnsupportedOperationException.class, () -> ((Map<?, ?>) back.get(3)).clear());
    }

    @Test
    void aSelfReferencingEnumMapComesBackWithItself() {
        EnumMap<DayOfWeek, Object> map = new EnumMap<>(DayOfWeek.class);
        map.put(DayOfWeek.MONDAY, List.of("x"));
        List<Object> holder = new ArrayList<>();
        holder.add(map);
        map.put(DayOfWeek.TUESDAY, holder);
        List<?> back = (List<?>) roundTrip(holder);
        EnumMap<?, ?> mapBack = (EnumMap<?, ?>) back.get(0);
        assertSame(back, mapBack.get(DayOfWeek.TUESDAY));
        assertEquals(List.of("x"), mapBack.get(DayOfWeek.MONDAY));
    }
}
