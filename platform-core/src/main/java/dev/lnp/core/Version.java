package dev.lnp.core;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The platform's version, as the build wrote it into {@code version.properties}. */
public final class Version {

    private Version() {
    }

    public static String current() {
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
