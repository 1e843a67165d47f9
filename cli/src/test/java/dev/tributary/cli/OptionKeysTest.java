package dev.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.TableOptions;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Each configuration key has exactly one owner: one {@link ConfigOption} declared for it in the
 * whole product, so a server and a remote job (or the store and the coordinator) can never read the
 * same key with different defaults or checks. Finds every option declared by the main classes of
 * every module on the class path (the cli module sees them all); a re-export of the same instance
 * is not a second declaration.
 */
class OptionKeysTest {

    @Test
    void everyKeyIsDeclaredOnce() throws Exception {
        Map<ConfigOption<?>, String> declarations = declarations();
        Map<String, List<String>> byKey = new TreeMap<>();
        declarations.forEach(
                (option, where) ->
                        byKey.computeIfAbsent(option.key(), k -> new ArrayList<>()).add(where));
        assertThat(byKey).as("options found").hasSizeGreaterThan(40);
        byKey.values().removeIf(where -> where.size() == 1);
        assertThat(byKey).as("keys declared by more than one option").isEmpty();
    }

    /**
     * Every {@code table.*} option is in the registry that create and alter check against (T56): a
     * table option declared elsewhere would be refused as unknown.
     */
    @Test
    void t56_everyTableOptionIsInTheRegistry() throws Exception {
        List<String> outside = new ArrayList<>();
        declarations()
                .forEach(
                        (option, where) -> {
                            if (option.key().startsWith(TableOptions.PREFIX)
                                    && TableOptions.find(option.key()).orElse(null) != option) {
                                outside.add(option.key() + " (" + where + ")");
                            }
                        });
        assertThat(outside).as("table options declared outside TableOptions").isEmpty();
        assertThat(TableOptions.all()).hasSize(24);
    }

    /** Every option declared by a static field of a product class, with where it is declared. */
    private Map<ConfigOption<?>, String> declarations() throws Exception {
        Map<ConfigOption<?>, String> declarations = new IdentityHashMap<>();
        for (String className : productClasses()) {
            Class<?> c = Class.forName(className, false, getClass().getClassLoader());
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())
                        && ConfigOption.class.isAssignableFrom(f.getType())) {
                    f.setAccessible(true);
                    ConfigOption<?> option = (ConfigOption<?>) f.get(null);
                    declarations.putIfAbsent(option, c.getName() + "." + f.getName());
                }
            }
        }
        return declarations;
    }

    /** Names of the classes under dev/tributary in the main class folders and jars. */
    private static List<String> productClasses() throws IOException {
        List<String> out = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(entry);
            if (Files.isDirectory(p) && p.endsWith(Path.of("target", "classes"))) {
                try (Stream<Path> files = Files.walk(p.resolve("dev/tributary"))) {
                    files.filter(f -> f.toString().endsWith(".class"))
                            .forEach(f -> out.add(className(p.relativize(f).toString())));
                } catch (java.nio.file.NoSuchFileException none) {
                    // a module without classes
                }
            } else if (isProductJar(p)) {
                try (JarFile jar = new JarFile(p.toFile())) {
                    jar.stream()
                            .map(e -> e.getName())
                            .filter(n -> n.startsWith("dev/tributary/") && n.endsWith(".class"))
                            .forEach(n -> out.add(className(n)));
                }
            }
        }
        assertThat(out).as("product classes on the class path").isNotEmpty();
        return out;
    }

    private static boolean isProductJar(Path p) {
        String name = p.getFileName().toString();
        return name.startsWith("tributary-")
                && name.endsWith(".jar")
                && !name.endsWith("-tests.jar")
                && Set.of("tributary-bench").stream().noneMatch(name::startsWith);
    }

    private static String className(String file) {
        return file.substring(0, file.length() - ".class".length()).replace('/', '.');
    }
}
