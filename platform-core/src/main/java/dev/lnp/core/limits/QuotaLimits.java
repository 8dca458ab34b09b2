package dev.lnp.core.limits;

import dev.lnp.core.config.PlatformConfig;
import dev.lnp.core.plugins.PluginRegistry;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The monthly limit of each declared quota: the workspace's own limit when it has one, else the deployment's
 * ({@code lnp.quotas.<name>.monthly}), else the default the plugin declared. The core knows no quota by name;
 * plugins declare them ({@code Registrar.quota}).
 */
public final class QuotaLimits {

    private final Map<String, Long> deployment;

    private QuotaLimits(Map<String, Long> deployment) {
        this.deployment = Map.copyOf(deployment);
    }

    /** Reads the deployment's limits of every declared quota; a value that is not a whole number ≥ 0 fails start-up. */
    public static QuotaLimits from(PluginRegistry registry, PlatformConfig config) {
        Map<String, Long> limits = new TreeMap<>();
        for (PluginRegistry.QuotaInfo quota : registry.quotas()) {
            String key = "lnp.quotas." + quota.name() + ".monthly";
            // Before plugins declared quotas, the one quota was set as lnp.limits.crm_monthly_quota: still read.
            String legacyKey = "lnp.limits." + quota.name() + "_monthly_quota";
            Optional<String> value = config.get(key);
            String usedKey = key;
            if (value.isEmpty()) {
                value = config.get(legacyKey);
                usedKey = legacyKey;
            }
            limits.put(quota.name(), value.isPresent() ? parse(usedKey, value.get()) : quota.defaultMonthly());
        }
        return new QuotaLimits(limits);
    }

    private static long parse(String key, String value) {
        try {
            long parsed = Long.parseLong(value.trim());
            if (parsed >= 0) {
                return parsed;
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        throw new IllegalStateException("Configuration " + key + " must be a whole number of 0 or more, not '"
                + value + "'");
    }

    /** The limit for a workspace without a limit of its own: the deployment's, else the plugin's default. */
    public long deploymentLimit(String quota) {
        return limit(quota, Map.of());
    }

    /** The limit for one workspace, given the workspace's own limits ({@code lnp_core.workspace_quotas}). */
    public long limit(String quota, Map<String, Long> workspaceLimits) {
        Long own = workspaceLimits.get(quota);
        if (own != null) {
            return own;
        }
        Long configured = deployment.get(quota);
        if (configured == null) {
            // The registry refuses undeclared quotas at start-up, so this is a bug, not a caller's mistake.
            throw new IllegalStateException("Quota " + quota + " was never declared");
        }
        return configured;
    }
}
