package shootout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The runner's packages, as their sources name each other (imports and qualified names): the arrows point one way, so
 * no package reaches itself through others and each can be read with only what it names below it.
 */
class ArchitectureTest {
    private static final Path SOURCES = Spec.DIR.resolveSibling("runners").resolve("jvm/src/main/java");
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern NAMED = Pattern.compile("\\b(shootout(?:\\.[a-z0-9]+)+)\\.[A-Z]");

    /**
     * Each hand-written package and the packages its sources name. Generated code (shootout.generated, written by
     * scripts/regenerate/) is left out: its generator decides its imports.
     */
    static Map<String, Set<String>> packages() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> all = Files.walk(SOURCES)) {
            files = all.filter(p -> p.toString().endsWith(".java")).toList();
        }
        for (Path file : files) {
            String source = Files.readString(file);
            Matcher p = PACKAGE.matcher(source);
            assertTrue(p.find(), file + " has no package");
            String from = p.group(1);
            if (from.startsWith("shootout.generated")) {
                continue;
            }
            Set<String> named = uses.computeIfAbsent(from, k -> new TreeSet<>());
            for (Matcher m = NAMED.matcher(source); m.find(); ) {
                if (!m.group(1).equals(from)) {
                    named.add(m.group(1));
                }
            }
        }
        return uses;
    }

    /** Every loop in uses, as "a -> b -> a", one per package on a loop, from that package, in the packages' order. */
    static List<String> loops(Map<String, Set<String>> uses) {
        List<String> loops = new ArrayList<>();
        for (String start : new TreeSet<>(uses.keySet())) {
            Map<String, String> reachedFrom = new HashMap<>();
            ArrayDeque<String> next = new ArrayDeque<>(List.of(start));
            while (!next.isEmpty() && !reachedFrom.containsKey(start)) {
                String at = next.poll();
                for (String to : uses.getOrDefault(at, Set.of())) {
                    if (!reachedFrom.containsKey(to)) {
                        reachedFrom.put(to, at);
                        next.add(to);
                    }
                }
            }
            if (reachedFrom.containsKey(start)) {
                List<String> path = new ArrayList<>(List.of(start));
                for (String at = reachedFrom.get(start); !at.equals(start); at = reachedFrom.get(at)) {
                    path.add(0, at);
                }
                path.add(0, start);
                loops.add(String.join(" -> ", path));
            }
        }
        return loops;
    }

    @Test
    void loopsAreFoundAndSaid() {
        Map<String, Set<String>> uses =
                Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a", "d"), "d", Set.of());
        assertEquals(List.of("a -> b -> c -> a", "b -> c -> a -> b", "c -> a -> b -> c"), loops(uses));
        assertEquals(List.of(), loops(Map.of("a", Set.of("b"), "b", Set.of())));
    }

    @Test
    void noPackageReachesItself() throws IOException {
        Map<String, Set<String>> uses = packages();
        // The sources were read: the command line names the study command, and the studies name their shared document.
        assertTrue(uses.get("shootout.cli").contains("shootout.study"), uses.toString());
        assertTrue(uses.get("shootout.jmh").contains("shootout.study.figures"), uses.toString());
        assertEquals(List.of(), loops(uses));
    }
}
