package dev.lnp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.core.console.ConsoleTemplates;
import dev.lnp.core.console.TemplateRender;
import dev.lnp.core.console.TemplateSamples;
import dev.lnp.core.console.Views;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The doctor's template check: every shipped core template renders, and a broken one is a FAIL naming it. */
class TemplateCheckTest {

    /** The module whose console and mail templates the doctor renders (run from this module's folder). */
    private static final Path CONSOLE_MODULE = Path.of("../../platform-core");

    private record Run(DoctorReport report, String out) {
    }

    private static Run run(List<TemplateRender> renders) {
        var bytes = new ByteArrayOutputStream();
        var report = new DoctorReport(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        new TemplateCheck(renders).run(report);
        return new Run(report, bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void everyCoreTemplateRendersWithItsSample() {
        List<TemplateRender> samples = TemplateSamples.core(new ConsoleTemplates());
        Run run = run(samples);
        assertEquals(List.of(), run.report().failures(), run.out());
        assertEquals("ok    templates: " + samples.size() + " console and mail templates render\n", run.out());
    }

    @Test
    void everyTemplateFileOfTheCoreHasASampleOrIsAPartOfOthers() throws IOException {
        var files = new TreeSet<String>();
        files.addAll(templates(CONSOLE_MODULE.resolve("src/main/jte"), ""));
        files.addAll(templates(CONSOLE_MODULE.resolve("src/main/jte-text"), "text/"));
        assertTrue(files.contains("mail/link.jte") && files.contains("text/signin.jte"), files.toString());
        var covered = new TreeSet<String>(TemplateSamples.PARTS);
        TemplateSamples.core(new ConsoleTemplates()).forEach(render -> covered.add(render.name()));
        assertEquals(files, covered, "a new template needs a sample in TemplateSamples, so the doctor renders it");
    }

    @Test
    void aTemplateThatCannotBeRenderedIsAFailNamingIt() {
        var templates = new ConsoleTemplates();
        var notice = new Views.Notice(new Views.Chrome("t", "/a.css", "/a.js", null, null, null, null, List.of()),
                "Heading", "Text", "/console", "Back");
        List<TemplateRender> renders = new ArrayList<>(List.of(
                new TemplateRender("notice.jte", () -> templates.render("notice.jte", notice)),
                new TemplateRender("mail/gone.jte", () -> templates.render("mail/gone.jte", notice)),
                new TemplateRender("text/empty.jte", () -> "")));
        Run run = run(renders);
        assertEquals(List.of("template mail/gone.jte", "template text/empty.jte"), run.report().failures(), run.out());
        assertTrue(run.out().contains("FAIL  template mail/gone.jte: cannot be rendered: TemplateNotFoundException"),
                run.out());
        assertTrue(run.out().contains("FAIL  template text/empty.jte: rendered nothing -> "), run.out());
        assertFalse(run.out().contains("ok    templates"), "no all-clear while one fails:\n" + run.out());
    }

    private static List<String> templates(Path root, String prefix) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            return paths.filter(p -> p.toString().endsWith(".jte"))
                    .map(p -> prefix + root.relativize(p).toString().replace('\\', '/'))
                    .toList();
        }
    }
}
