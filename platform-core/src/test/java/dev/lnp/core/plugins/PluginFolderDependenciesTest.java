package dev.lnp.core.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.Registrar;
import dev.lnp.core.plugins.bundled.BundledEntry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plugin in the plugins folder (PF4J) that depends on a plugin bundled with the platform (on the class path,
 * loaded first): the dependency is honoured, checked for its version, refused when the bundled plugin is switched
 * off, and a second copy of a bundled plugin in the folder is refused; the bundled plugin's classes are the folder
 * plugin's only when it depends on it. The folder plugin is compiled and packed here, as a third party would ship it.
 */
class PluginFolderDependenciesTest {

    private static final PluginSelection ALL = new PluginSelection(List.of(), List.of());

    @TempDir
    Path work;

    private Path folder;

    @BeforeEach
    void pluginsFolder() throws IOException {
        folder = Files.createDirectories(work.resolve("plugins"));
    }

    @Test
    void aFolderPluginLoadsAfterTheBundledPluginItDependsOn() throws IOException {
        jar("addon", "crm@>=0.1.0");
        var loader = new PluginLoader(folder, ALL, List.of(bundled("crm", "0.1.0")));
        try {
            List<LoadedPlugin> loaded = loader.load();
            assertEquals(1, loaded.size(), loaded.toString());
            LoadedPlugin addon = loaded.get(0);
            assertEquals("addon", addon.id());
            assertEquals(List.of("crm"), addon.dependencies(), "the declared dependency is kept for the record");
            assertNotSame(getClass().getClassLoader(), addon.instance().getClass().getClassLoader(),
                    "the folder plugin has PF4J's loader of its own");
        } finally {
            loader.unload();
        }
    }

    @Test
    void aBundledPluginOfTheWrongVersionRefusesTheStart() throws IOException {
        jar("addon", "crm@>=2.0.0");
        var loader = new PluginLoader(folder, ALL, List.of(bundled("crm", "0.1.0")));
        var failure = assertThrows(IllegalStateException.class, loader::load);
        assertEquals("Plugin addon needs plugin crm in version >=2.0.0, but the bundled one is 0.1.0",
                failure.getMessage());
    }

    @Test
    void aSwitchedOffBundledPluginRefusesTheStartOfItsDependent() throws IOException {
        jar("addon", "crm");
        // crm switched off: it is not among the bundled plugins that were loaded.
        var loader = new PluginLoader(folder, new PluginSelection(List.of(), List.of("crm")), List.of());
        var failure = assertThrows(RuntimeException.class, loader::load);
        assertTrue(failure.getMessage().contains("crm"), failure.getMessage());
    }

    @Test
    void aSecondCopyOfABundledPluginInTheFolderRefusesTheStart() throws IOException {
        jar("crm", "");
        var loader = new PluginLoader(folder, ALL, List.of(bundled("crm", "0.1.0")));
        var failure = assertThrows(IllegalStateException.class, loader::load);
        assertTrue(failure.getMessage().startsWith("Plugin crm in ") && failure.getMessage().contains(
                "is also bundled with the platform (lib/plugins/crm-plugin.jar)"), failure.getMessage());
    }

    @Test
    void aFolderPluginUsesABundledPluginsClassesOnlyWhenItDependsOnIt() throws IOException {
        String useBundled = "try { Class.forName(\"" + BundledEntry.class.getName() + "\", true, Entry.class"
                + ".getClassLoader()); } catch (ClassNotFoundException e) { throw new IllegalStateException(e); }";
        jar("addon", "", useBundled);
        var loader = new PluginLoader(folder, ALL, List.of(bundled("crm", "0.1.0", new BundledEntry())));
        var failure = assertThrows(IllegalStateException.class, loader::load);
        Throwable cause = failure;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        assertEquals(BundledEntry.class.getName() + " belongs to the bundled plugin crm, which plugin addon does not "
                + "depend on: add crm to plugin.dependencies in its plugin.properties", cause.getMessage());
        loader.unload();

        Files.delete(folder.resolve("addon-plugin-1.0.0.jar"));
        jar("addon", "crm", useBundled);
        var dependent = new PluginLoader(folder, ALL, List.of(bundled("crm", "0.1.0", new BundledEntry())));
        try {
            assertEquals("addon", dependent.load().get(0).id(), "with the dependency declared it loads");
        } finally {
            dependent.unload();
        }
    }

    @Test
    void aFolderPluginsOwnClassesAreItsOwnEvenInABundledPluginsPackage() throws IOException {
        // An embedding application's class-path plugin may share a package root with the folder's plugins.
        jar("addon", "", "", BundledEntry.class.getPackageName() + ".addon");
        var loader = new PluginLoader(folder, ALL, List.of(bundled("crm", "0.1.0", new BundledEntry())));
        try {
            assertEquals("addon", loader.load().get(0).id());
        } finally {
            loader.unload();
        }
    }

    @Test
    void aFolderPluginWithoutAnEntryPointOfItsOwnRefusesTheStart() throws IOException {
        jar("addon", "", "", "org.example.addon", "");
        var loader = new PluginLoader(folder, ALL, List.of(bundled("crm", "0.1.0", new BundledEntry())));
        var failure = assertThrows(IllegalStateException.class, loader::load);
        assertEquals("Plugin addon must declare exactly one dev.lnp.api.PlatformPlugin of its own in "
                + "META-INF/services/dev.lnp.api.PlatformPlugin; found []", failure.getMessage());
        loader.unload();
    }

    @Test
    void anEntryPointThatIsNotInTheJarRefusesTheStart() throws IOException {
        jar("addon", "", "", "org.example.addon", "org.example.addon.Entry\n# a comment\norg.example.addon.Missing\n");
        var loader = new PluginLoader(folder, ALL, List.of());
        var failure = assertThrows(IllegalStateException.class, loader::load);
        assertEquals("Cannot read the entry point of plugin addon from META-INF/services/dev.lnp.api.PlatformPlugin: "
                + "org.example.addon.Missing", failure.getMessage());
        loader.unload();
    }

    private static LoadedPlugin bundled(String id, String version) {
        return bundled(id, version, new PlatformPlugin() {
            @Override
            public void register(Registrar registrar) {
            }
        });
    }

    private static LoadedPlugin bundled(String id, String version, PlatformPlugin instance) {
        return new LoadedPlugin(id, version, List.of(), instance, PluginFolderDependenciesTest.class.getClassLoader(),
                "lib/plugins/" + id + "-plugin.jar");
    }

    /** A plugin jar with id {@code id} and {@code plugin.dependencies=dependencies}, its entry point compiled here. */
    private void jar(String id, String dependencies) throws IOException {
        jar(id, dependencies, "");
    }

    /** The same, its entry point's constructor running {@code constructorBody}. */
    private void jar(String id, String dependencies, String constructorBody) throws IOException {
        jar(id, dependencies, constructorBody, "org.example." + id);
    }

    /** The same, its entry point in package {@code pkg}. */
    private void jar(String id, String dependencies, String constructorBody, String pkg) throws IOException {
        jar(id, dependencies, constructorBody, pkg, pkg + ".Entry\n");
    }

    /** The same, with {@code services} as its service file (none when empty). */
    private void jar(String id, String dependencies, String constructorBody, String pkg, String services)
            throws IOException {
        String source = "package " + pkg + ";\n"
                + "public final class Entry implements dev.lnp.api.PlatformPlugin {\n"
                + "    public Entry() { " + constructorBody + " }\n"
                + "    @Override public void register(dev.lnp.api.Registrar registrar) { }\n"
                + "}\n";
        Path src = Files.createDirectories(work.resolve("src"));
        Path file = src.resolve("Entry.java");
        Files.writeString(file, source);
        Path classes = Files.createDirectories(src.resolve("classes"));
        var errors = new ByteArrayOutputStream();
        int exit = ToolProvider.getSystemJavaCompiler().run(null, null, errors, "-d", classes.toString(),
                "--release", "21", "-proc:none", "-cp", System.getProperty("java.class.path"), file.toString());
        assertEquals(0, exit, errors.toString());
        String classFile = pkg.replace('.', '/') + "/Entry.class";
        Map<String, byte[]> entries = new LinkedHashMap<>();
        entries.put("plugin.properties", ("plugin.id=" + id + "\nplugin.version=1.0.0\nplugin.provider=Example\n"
                + "plugin.requires=*\nplugin.dependencies=" + dependencies + "\n").getBytes(StandardCharsets.UTF_8));
        if (!services.isEmpty()) {
            entries.put("META-INF/services/dev.lnp.api.PlatformPlugin", services.getBytes(StandardCharsets.UTF_8));
        }
        entries.put(classFile, Files.readAllBytes(classes.resolve(classFile)));
        try (OutputStream out = Files.newOutputStream(folder.resolve(id + "-plugin-1.0.0.jar"));
                JarOutputStream jar = new JarOutputStream(out)) {
            for (var entry : entries.entrySet()) {
                jar.putNextEntry(new JarEntry(entry.getKey()));
                jar.write(entry.getValue());
                jar.closeEntry();
            }
        }
    }
}
