package dev.lnp.distribution;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The compiled classes of every module of the build, each class labelled with the module folder it was compiled in,
 * and the dependencies between modules they make: a class that calls, extends, implements, declares or annotates
 * with a class of another module depends on that module.
 */
final class ModuleDependencies {

    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    private static final Pattern REQUIRES = Pattern.compile("^\\s*requires\\s+(?:transitive\\s+|static\\s+)*([\\w.]+)\\s*;",
            Pattern.MULTILINE);

    final Path root;
    final List<String> modules;
    final JavaClasses classes;
    private final Map<String, String> moduleOfClass = new HashMap<>();

    private ModuleDependencies(Path root, List<String> modules, JavaClasses classes, Map<String, String> moduleOf) {
        this.root = root;
        this.modules = modules;
        this.classes = classes;
        this.moduleOfClass.putAll(moduleOf);
    }

    /** The modules the root POM lists, with the classes each compiled into its {@code target/classes}. */
    static ModuleDependencies of(Path root) throws IOException {
        List<String> modules = new ArrayList<>();
        Matcher m = MODULE.matcher(Files.readString(root.resolve("pom.xml")));
        while (m.find()) modules.add(m.group(1));

        Map<String, String> moduleOf = new HashMap<>();
        List<Path> folders = new ArrayList<>();
        ClassFileImporter importer = new ClassFileImporter();
        for (String module : modules) {
            if (!Files.isDirectory(root.resolve(module).resolve("src/main/java"))) continue;
            Path compiled = root.resolve(module).resolve("target/classes");
            if (!Files.isDirectory(compiled)) {
                throw new IllegalStateException(module + " has no target/classes: run the check from the whole build");
            }
            folders.add(compiled);
            for (JavaClass c : importer.importPath(compiled)) moduleOf.put(c.getName(), module);
        }
        return new ModuleDependencies(root, modules, importer.importPaths(folders), moduleOf);
    }

    /** Every dependency of one module's class on a class of a module the table does not allow, one line each. */
    List<String> forbidden(ModuleTable table) {
        TreeSet<String> lines = new TreeSet<>();
        for (JavaClass c : classes) {
            String from = moduleOfClass.get(c.getName());
            if (from == null) continue;
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String to = moduleOfClass.get(d.getTargetClass().getName());
                if (to != null && !table.allows(from, to)) {
                    lines.add(from + " -> " + to + ": " + c.getName() + " uses " + d.getTargetClass().getName());
                }
            }
        }
        return List.copyOf(lines);
    }

    /** Every {@code requires} of a module-info that names a module of the build its row does not allow. */
    List<String> forbiddenRequires(ModuleTable table) throws IOException {
        List<String> lines = new ArrayList<>();
        for (String module : modules) {
            Path info = root.resolve(module).resolve("src/main/java/module-info.java");
            if (!Files.exists(info)) continue;
            Matcher m = REQUIRES.matcher(Files.readString(info));
            while (m.find()) {
                String target = table.jpmsNames().get(m.group(1));
                if (target != null && !table.allows(module, target)) {
                    lines.add(module + " requires " + m.group(1) + " (" + target + ")");
                }
            }
        }
        return lines;
    }

    /** Modules of the build with classes and no row in the table. */
    List<String> withoutRow(ModuleTable table) {
        List<String> missing = new ArrayList<>();
        for (String module : modules) {
            if (moduleOfClass.containsValue(module) && !table.allowed().containsKey(module)) missing.add(module);
        }
        return missing;
    }
}
