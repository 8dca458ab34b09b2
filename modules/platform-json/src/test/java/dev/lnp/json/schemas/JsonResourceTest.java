package dev.lnp.json.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lnp.api.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Json#resource} reads the owner's own file when two jars on one class loader (the distribution's bundled
 * plugins) carry the same name, e.g. the CRM's and the chatbot's {@code schemas/contact.json}.
 */
class JsonResourceTest {

    /** Stand-ins for two plugins' classes, copied into two jars. */
    public static final class FirstOwner {
    }

    public static final class SecondOwner {
    }

    @Test
    void eachJarOnASharedLoaderReadsItsOwnFileOfTheSameName(@TempDir Path dir) throws Exception {
        Path first = jar(dir.resolve("first.jar"), FirstOwner.class, "{\"from\": \"first\"}");
        Path second = jar(dir.resolve("second.jar"), SecondOwner.class, "{\"from\": \"second\"}");
        try (URLClassLoader shared = new URLClassLoader(new URL[] {first.toUri().toURL(), second.toUri().toURL()},
                null)) {
            Class<?> firstOwner = shared.loadClass(FirstOwner.class.getName());
            Class<?> secondOwner = shared.loadClass(SecondOwner.class.getName());
            assertEquals("first", Json.resource(firstOwner, "schemas/contact.json").path("from").asText());
            assertEquals("second", Json.resource(secondOwner, "schemas/contact.json").path("from").asText(),
                    "not the first jar's file, which the shared loader finds first");
            assertEquals("second", Json.resource(secondOwner, "/schemas/contact.json").path("from").asText());
        }
    }

    private static Path jar(Path file, Class<?> owner, String json) throws IOException {
        String classFile = owner.getName().replace('.', '/') + ".class";
        try (OutputStream out = Files.newOutputStream(file); JarOutputStream jar = new JarOutputStream(out);
                InputStream bytes = owner.getClassLoader().getResourceAsStream(classFile)) {
            jar.putNextEntry(new JarEntry(classFile));
            bytes.transferTo(jar);
            jar.putNextEntry(new JarEntry("schemas/contact.json"));
            jar.write(json.getBytes(StandardCharsets.UTF_8));
        }
        return file;
    }
}
