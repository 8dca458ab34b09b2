package dev.lnp.core;

import dev.lnp.api.JsonValidation;
import dev.lnp.api.internal.platform.PluginCatalog;
import dev.lnp.api.internal.subsystem.Subsystem;
import dev.lnp.core.config.PlatformConfig;
import java.time.Clock;

/** What a subsystem may read while it registers ({@link Subsystem.Setup}). */
record KernelSetup(PlatformConfig config, Clock clock, PluginCatalog plugins, JsonValidation jsonValidation)
        implements Subsystem.Setup {
}
