package dev.lnp.web.console;

/**
 * Where a browser may be sent after signing in: only a path of this deployment. Anything that a browser could read
 * as another host ({@code //host}, {@code /\host}, a scheme) or that carries control characters is refused, so a
 * sign-in cannot be turned into an open redirect.
 */
public final class ReturnPaths {

    static final int MAX_LENGTH = 2000;

    private ReturnPaths() {
    }

    public static boolean isLocal(String path) {
        if (path == null || path.isEmpty() || path.length() > MAX_LENGTH || path.charAt(0) != '/') {
            return false;
        }
        if (path.length() > 1 && (path.charAt(1) == '/' || path.charAt(1) == '\\')) {
            return false;
        }
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c < 0x21 || c == 0x7f || c == '\\' || c > 0x7e) {
                return false;
            }
        }
        try {
            var uri = new java.net.URI(path);
            return uri.getScheme() == null && uri.getRawAuthority() == null && uri.getRawPath() != null
                    && uri.getRawPath().startsWith("/");
        } catch (java.net.URISyntaxException e) {
            return false;
        }
    }
}
