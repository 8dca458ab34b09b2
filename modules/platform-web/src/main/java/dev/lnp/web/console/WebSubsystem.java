package dev.lnp.web.console;

import dev.lnp.api.internal.console.SignInInvitations;
import dev.lnp.api.internal.platform.ConfigValues;
import dev.lnp.api.internal.subsystem.DoctorCheck;
import dev.lnp.api.internal.subsystem.OwnedMigrations;
import dev.lnp.api.internal.subsystem.Subsystem;
import dev.lnp.api.internal.subsystem.TemplateRender;
import dev.lnp.api.mail.OutgoingMail;
import dev.lnp.api.internal.people.PeoplePages;
import io.helidon.webserver.http.HttpRouting;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The administration console as a subsystem of the kernel: built once the mail module has offered its mailer
 * (before plugins start, since its pages for people are a service plugins take), served under {@code /console}
 * with the other subsystems' pages, and its sign-in links and templates for the operator's commands.
 */
public final class WebSubsystem implements Subsystem {

    private ConsoleSettings settings;
    private Console console;
    private ConsoleRequestMetrics metrics;

    /**
     * The console's own tables (sign-in with an OpenID Connect provider: the sign-ins under way, the sessions that
     * began there, the workspaces' sign-in rules), in its own schema; its older tables are still the core's.
     */
    @Override
    public Optional<OwnedMigrations> migrations() {
        return Optional.of(new OwnedMigrations("lnp-web", "lnp_web", List.of()));
    }

    /** A wrong {@code lnp.oidc.*} setting, and a provider whose discovery cannot be read. */
    @Override
    public List<DoctorCheck> doctorChecks() {
        return List.of(new OidcDoctorCheck());
    }

    /** After mail (0), whose mailer and mailbox it takes; before the subsystems that only add pages. */
    @Override
    public int rank() {
        return 10;
    }

    @Override
    public Map<Class<?>, Object> offer(Services services) {
        settings = new ConsoleSettings(services.config());
        console = new Console(settings, services);
        metrics = new ConsoleRequestMetrics(services.meters());
        return Map.of(PeoplePages.class, console.peoplePages());
    }

    @Override
    public void routing(HttpRouting.Builder routing) {
        routing.get(Favicon.PATH, Favicon::answer);
        // The administration console: server-rendered pages with their own (cookie) authentication.
        routing.register("/console", console);
        // The workspace application: the pages plugins contribute through the page API, with the console's sessions.
        routing.register("/app", console.application());
        routing.addFilter(metrics);
    }

    /** Stops following events for open pages. */
    @Override
    public void withdraw() {
        if (console != null) {
            console.close();
        }
    }

    @Override
    public void serverStarted(int port) {
        settings.serverStarted(port);
    }

    @Override
    public Map<Class<?>, Object> operatorServices(Operator operator) {
        return Map.of(SignInInvitations.class,
                new OperatorInvitations(operator.jdbi(), new ConsoleSettings(operator.config())));
    }

    @Override
    public List<TemplateRender> templates() {
        return TemplateSamples.core(new ConsoleTemplates());
    }

    /** The sign-in mail, rendered from its templates as a real one is. */
    @Override
    public Optional<OutgoingMail> sampleMail(ConfigValues config, String to) {
        var templates = new ConsoleTemplates();
        var model = new Views.LinkMail(config.baseUrl().resolve("/console/sign-in").toString(), "no time",
                "This is a test message from `platform doctor`: the platform's mail reaches you. Nothing needs to "
                        + "be done.", "Open the console");
        return Optional.of(new OutgoingMail(null, to, "Test message from the workspace platform",
                templates.renderText("signin.jte", model), templates.render("mail/link.jte", model), null));
    }
}
