package dev.lnp.testkit;

import dev.lnp.core.Platform;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.core.plugins.ClasspathPlugins;
import dev.lnp.core.plugins.LoadedPlugin;
import dev.lnp.core.plugins.PluginLoader;
import dev.lnp.core.plugins.PluginSelection;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/** The JUnit 5 side of {@link PlatformTest}. */
public final class PlatformExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(PlatformExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        Class<?> testClass = context.getRequiredTestClass();
        PlatformTest settings = testClass.getAnnotation(PlatformTest.class);
        Map<String, String> overrides = new HashMap<>();
        for (String entry : settings.config()) {
            int eq = entry.indexOf('=');
            overrides.put(entry.substring(0, eq), entry.substring(eq + 1));
        }
        TestPlatform platform = TestPlatform.start(testClass.getSimpleName(), List.of(settings.plugins()),
                settings.pluginsDir().isEmpty() ? null : Path.of(settings.pluginsDir()), overrides);
        context.getStore(NS).put(TestPlatform.class, platform);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        TestPlatform platform = context.getStore(NS).remove(TestPlatform.class, TestPlatform.class);
        if (platform != null) {
            platform.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext extension) {
        return parameter.getParameter().getType() == TestPlatform.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext extension) {
        ExtensionContext classContext = extension;
        while (classContext.getStore(NS).get(TestPlatform.class) == null && classContext.getParent().isPresent()) {
            classContext = classContext.getParent().get();
        }
        return classContext.getStore(NS).get(TestPlatform.class, TestPlatform.class);
    }

    static List<LoadedPlugin> plugins(List<String> enabled, Path pluginsDir, PlatformConfig config,
            PluginLoader[] loaderOut) {
        PluginSelection selection = new PluginSelection(enabled.isEmpty() ? config.pluginsEnabled() : enabled,
                config.pluginsDisabled());
        if (pluginsDir != null) {
            loaderOut[0] = new PluginLoader(pluginsDir.toAbsolutePath(), selection, List.of());
            return loaderOut[0].load();
        }
        return ClasspathPlugins.discover(Thread.currentThread().getContextClassLoader(), selection);
    }

    static PlatformConfig config(Map<String, String> overrides) {
        return PlatformConfig.load(null, Map.of(), overrides);
    }

    static Platform boot(PlatformConfig config, List<LoadedPlugin> plugins, PluginLoader loader) {
        return Platform.start(config, plugins, loader == null ? () -> { } : loader::unload);
    }
}
