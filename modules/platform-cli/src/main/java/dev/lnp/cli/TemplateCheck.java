package dev.lnp.cli;

import dev.lnp.api.internal.subsystem.Subsystem;
import dev.lnp.api.internal.subsystem.TemplateRender;
import java.util.List;

/**
 * Renders every shipped template (the console's pages and mails, and each other subsystem's) with a representative
 * model. It runs in the doctor's own process, so on the release image the templates are rendered under that
 * image's module rules, where a template package the template engine may not open fails as it would on a page.
 */
final class TemplateCheck {

    static final String BROKEN = "this release is broken: pages or mails using this template answer 500; report "
            + "this line to the platform's maintainers and install a release whose doctor renders every template";

    private final List<TemplateRender> renders;

    TemplateCheck(List<TemplateRender> renders) {
        this.renders = List.copyOf(renders);
    }

    /** The templates of every subsystem in this installation (the console's pages and mails, webhooks' pages). */
    static TemplateCheck shipped() {
        return new TemplateCheck(Subsystem.load().stream().flatMap(subsystem -> subsystem.templates().stream())
                .toList());
    }

    void run(DoctorReport report) {
        int rendered = 0;
        for (TemplateRender template : renders) {
            try {
                String output = template.render().get();
                if (output == null || output.isBlank()) {
                    report.fail("template " + template.name(), "rendered nothing", BROKEN);
                } else {
                    rendered++;
                }
            } catch (RuntimeException | LinkageError e) {
                report.fail("template " + template.name(), "cannot be rendered: " + causes(e), BROKEN);
            }
        }
        if (rendered == renders.size()) {
            report.ok("templates", rendered + " console and mail templates render");
        }
    }

    /** The exception and its causes on one line: the root says what the module rules refused. */
    private static String causes(Throwable e) {
        var text = new StringBuilder();
        Throwable t = e;
        for (int depth = 0; t != null && depth < 4; depth++, t = t.getCause()) {
            if (!text.isEmpty()) {
                text.append(" <- ");
            }
            text.append(t.getClass().getSimpleName()).append(": ")
                    .append(String.valueOf(t.getMessage()).lines().findFirst().orElse(""));
        }
        return text.toString();
    }
}
