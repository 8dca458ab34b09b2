package dev.lnp.core.plugins;

import java.util.List;

/** Which plugins a deployment loads: {@code lnp.plugins.enabled} (empty = all) minus {@code lnp.plugins.disabled}. */
public record PluginSelection(List<String> enabled, List<String> disabled) {

    public boolean isEnabled(String pluginId) {
        return (enabled.isEmpty() || enabled.contains(pluginId)) && !disabled.contains(pluginId);
    }
}
