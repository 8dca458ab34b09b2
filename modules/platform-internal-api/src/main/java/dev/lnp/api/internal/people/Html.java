package dev.lnp.api.internal.people;

/** Escaping for HTML built by hand (page bodies for {@link PageVisitor#page}). */
public final class Html {

    private Html() {
    }

    /** {@code text} safe in element content and in a double- or single-quoted attribute value; null as empty. */
    public static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /** {@code value} percent-encoded for a query parameter in a URL. */
    public static String urlEncode(String value) {
        return java.net.URLEncoder.encode(value == null ? "" : value, java.nio.charset.StandardCharsets.UTF_8);
    }
}
