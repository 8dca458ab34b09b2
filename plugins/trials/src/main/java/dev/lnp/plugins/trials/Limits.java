package dev.lnp.plugins.trials;

import dev.lnp.api.PluginContext;

/**
 * The abuse limits, all counted in PostgreSQL (so they hold for the whole cluster). Each can be changed per
 * deployment with {@code lnp.trials.limits.<name>}.
 */
record Limits(int requestsPerOwnerPerHour, int requestsPerClientPerHour, int pendingPerOwner,
        int mailsPerAddressPerDay) {

    static Limits from(PluginContext context) {
        return new Limits(value(context, "requests_per_owner_per_hour", 3),
                value(context, "requests_per_client_per_hour", 10),
                value(context, "pending_per_owner", 2),
                value(context, "mails_per_address_per_day", 5));
    }

    private static int value(PluginContext context, String name, int fallback) {
        String key = "lnp.trials.limits." + name;
        return context.config(key).filter(v -> !v.isBlank()).map(v -> {
            try {
                int n = Integer.parseInt(v.strip());
                if (n < 1) {
                    throw new NumberFormatException();
                }
                return n;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(key + " must be a whole number of at least 1, not " + v);
            }
        }).orElse(fallback);
    }
}
