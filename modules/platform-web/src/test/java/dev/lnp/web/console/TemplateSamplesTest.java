package dev.lnp.web.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.internal.subsystem.TemplateRender;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The console's samples for {@code platform doctor}: every template file has one, and each renders. */
class TemplateSamplesTest {

    @Test
    void everyConsoleTemplateRendersWithItsSample() {
        List<TemplateRender> samples = TemplateSamples.core(new ConsoleTemplates());
        for (TemplateRender sample : samples) {
            String output = sample.render().get();
            assertFalse(output == null || output.isBlank(), sample.name() + " rendered nothing");
        }
    }

    @Test
    void everyTemplateFileHasASampleOrIsAPartOfOthers() throws IOException {
        var files = new TreeSet<String>();
        files.addAll(templates(Path.of("src/main/jte"), ""));
        files.addAll(templates(Path.of("src/main/jte-text"), "text/"));
        assertTrue(files.contains("mail/link.jte") && files.contains("text/signin.jte"), files.toString());
        var covered = new TreeSet<String>(TemplateSamples.PARTS);
        TemplateSamples.core(new ConsoleTemplates()).forEach(render -> covered.add(render.name()));
        assertEquals(files, covered, "a new template needs a sample in TemplateSamples, so the doctor renders it");
    }

    private static List<String> templates(Path root, String prefix) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            return paths.filter(p -> p.toString().endsWith(".jte"))
                    .map(p -> prefix + root.relativize(p).toString().replace('\\', '/'))
                    .toList();
        }
    }
}
