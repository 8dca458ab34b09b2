package dev.lnp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.internal.subsystem.TemplateRender;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The doctor's template check: an all-clear when every template renders, and a broken one is a FAIL naming it. (The
 * console's own templates and their samples are checked in platform-web, TemplateSamplesTest.)
 */
class TemplateCheckTest {

    private record Run(DoctorReport report, String out) {
    }

    /** What the template engine throws for a template the release lacks. */
    private static final class TemplateNotFoundException extends RuntimeException {
        TemplateNotFoundException(String message) {
            super(message);
        }
    }

    private static Run run(List<TemplateRender> renders) {
        var bytes = new ByteArrayOutputStream();
        var report = new DoctorReport(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        new TemplateCheck(renders).run(report);
        return new Run(report, bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void templatesThatRenderAreOneAllClear() {
        Run run = run(List.of(new TemplateRender("notice.jte", () -> "<p>notice</p>"),
                new TemplateRender("text/signin.jte", () -> "Sign in")));
        assertEquals(List.of(), run.report().failures(), run.out());
        assertEquals("ok    templates: 2 console and mail templates render\n", run.out());
    }

    @Test
    void aTemplateThatCannotBeRenderedIsAFailNamingIt() {
        List<TemplateRender> renders = List.of(
                new TemplateRender("notice.jte", () -> "<p>notice</p>"),
                new TemplateRender("mail/gone.jte", () -> {
                    throw new TemplateNotFoundException("mail/gone.jte not found");
                }),
                new TemplateRender("text/empty.jte", () -> ""));
        Run run = run(renders);
        assertEquals(List.of("template mail/gone.jte", "template text/empty.jte"), run.report().failures(), run.out());
        assertTrue(run.out().contains("FAIL  template mail/gone.jte: cannot be rendered: TemplateNotFoundException"),
                run.out());
        assertTrue(run.out().contains("FAIL  template text/empty.jte: rendered nothing -> "), run.out());
        assertFalse(run.out().contains("ok    templates"), "no all-clear while one fails:\n" + run.out());
    }
}
