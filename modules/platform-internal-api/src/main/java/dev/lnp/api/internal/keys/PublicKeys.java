package dev.lnp.api.internal.keys;

/**
 * Shapes of the product-scoped public keys that live in web pages. They start with {@code lnp_} as every key,
 * followed by a product marker, so that the platform tells them from management keys without looking them up:
 * a widget key presented to {@code /api/v1} or MCP is refused with 401 {@code widget_key_not_allowed}.
 */
public final class PublicKeys {

    /** A chat widget's key ({@code lnp_cxo_…}): valid only on {@code /api/cxo/*}, for that widget. */
    public static final String WIDGET_PREFIX = "lnp_cxo_";

    private PublicKeys() {
    }

    public static boolean isWidgetKey(String key) {
        return key != null && key.startsWith(WIDGET_PREFIX);
    }
}
