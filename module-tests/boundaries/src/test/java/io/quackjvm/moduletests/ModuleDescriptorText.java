package io.quackjvm.moduletests;

import java.lang.module.ModuleDescriptor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A module descriptor as stable text, one fact per line, in the spirit of {@code jar --describe-module}:
 * the first line is {@code [open|automatic] module <name>}; then {@code requires} (with modifiers),
 * {@code exports}, {@code opens}, {@code uses}, {@code provides ... with ...} and {@code contains} (the packages
 * that are not exported), each group sorted. The version is left out so that a release does not change it.
 */
final class ModuleDescriptorText {

    private ModuleDescriptorText() {
    }

    static List<String> of(ModuleDescriptor d) {
        List<String> lines = new ArrayList<>();
        lines.add(modifiers(d.modifiers()) + "module " + d.name());
        d.requires().stream().sorted(Comparator.comparing(ModuleDescriptor.Requires::name))
                .forEach(r -> lines.add(("requires " + r.name() + " " + modifiers(r.modifiers())).strip()));
        d.exports().stream().sorted(Comparator.comparing(ModuleDescriptor.Exports::source))
                .forEach(e -> lines.add("exports " + e.source() + targets(e.targets())));
        d.opens().stream().sorted(Comparator.comparing(ModuleDescriptor.Opens::source))
                .forEach(o -> lines.add("opens " + o.source() + targets(o.targets())));
        d.uses().stream().sorted().forEach(u -> lines.add("uses " + u));
        d.provides().stream().sorted(Comparator.comparing(ModuleDescriptor.Provides::service))
                .forEach(p -> lines.add("provides " + p.service() + " with " + String.join(",", p.providers())));
        Set<String> exported = d.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet());
        new TreeSet<>(d.packages()).stream().filter(p -> !exported.contains(p))
                .forEach(p -> lines.add("contains " + p));
        return lines;
    }

    private static String modifiers(Set<? extends Enum<?>> modifiers) {
        return modifiers.stream().map(m -> m.name().toLowerCase(Locale.ROOT) + " ").sorted()
                .collect(Collectors.joining());
    }

    private static String targets(Set<String> targets) {
        return targets.isEmpty() ? "" : " to " + String.join(",", new TreeSet<>(targets));
    }
}
