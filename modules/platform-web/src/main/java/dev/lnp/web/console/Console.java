package dev.lnp.web.console;

import dev.lnp.api.internal.console.Chrome;
import dev.lnp.api.internal.console.ConsoleAuthorization;
import dev.lnp.api.internal.console.ConsolePages;
import dev.lnp.api.internal.console.ConsoleSession;
import dev.lnp.api.internal.console.NavItem;
import dev.lnp.api.internal.console.NavSection;
import dev.lnp.api.internal.console.PageExchange;
import dev.lnp.api.internal.http.HttpAnswers;
import dev.lnp.api.internal.keys.ConnectionAdmin;
import dev.lnp.api.internal.mail.Mailbox;
import dev.lnp.api.internal.mail.TransactionalMailer;
import dev.lnp.api.internal.platform.PluginCatalog;
import dev.lnp.api.internal.platform.RateLimits;
import dev.lnp.api.internal.subsystem.Subsystem;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.lang.System.Logger.Level;
import java.util.List;
import org.jdbi.v3.core.Jdbi;

/**
 * The administration console under {@code /console}: server-rendered pages for people signed in by magic
 * link. Every route is listed here with the class that handles it; each handler asks
 * {@link ConsoleAuthorization} before it shows or changes anything.
 */
public final class Console implements HttpService, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Console.class.getName());

    private final ConsoleSettings settings;
    private final ConsoleTemplates templates;
    private final ConsoleAssets assets;
    private final ConsoleSessions sessions;
    private final SignInLinks links;
    private final SignInThrottle throttle;
    private final People people;
    private final ConsoleActivity activity;
    private final ConnectionAdmin connections;
    private final ConnectionActivity connectionActivity;
    private final PluginCatalog plugins;
    private final HttpAnswers http;
    private final TransactionalMailer mailer;
    private final SignInPages signIn;
    private final ConnectionPages connectionPages;
    private final AccountPages accountPages;
    private final Members members;
    private final Invitations invitations;
    private final MemberPages memberPages;
    private final ManagementApi managementApi;
    private final WorkspaceSettings workspaceSettings;
    private final WorkspacePages workspacePages;
    private final RateLimits limits;
    private final Mailbox mailbox;
    private final MailboxPages mailboxPages;
    private final PluginPages pluginPages;
    private final ContributedPages contributedPages;
    private final LiveEvents liveEvents;
    private final AppSearch appSearch;
    private final SignInPolicy policy;
    /** Sign-in at the deployment's OpenID Connect provider; null when none is configured. */
    private final OidcPages oidcPages;
    private final SignInSettingsPages signInSettingsPages;
    private final String providerName;
    private final String providerOrigin;
    private final WorkspaceMembers workspaceMembers;
    private final Shells shells;

    /** @param services the kernel's, with the mail module's {@link TransactionalMailer} and {@link Mailbox} */
    public Console(ConsoleSettings settings, Subsystem.Services services) {
        Jdbi jdbi = services.jdbi();
        this.settings = settings;
        this.templates = new ConsoleTemplates();
        this.assets = ConsoleAssets.load();
        this.sessions = new ConsoleSessions(jdbi, settings.sessionLifetime());
        this.links = new SignInLinks(jdbi);
        this.throttle = new SignInThrottle(jdbi, settings.throttleWindow());
        this.people = new People(jdbi);
        this.activity = new ConsoleActivity(jdbi);
        this.connections = services.connections();
        this.connectionActivity = new ConnectionActivity(jdbi);
        this.plugins = services.plugins();
        this.http = services.http();
        this.mailer = services.require(TransactionalMailer.class);
        this.signIn = new SignInPages(this);
        this.connectionPages = new ConnectionPages(this);
        this.accountPages = new AccountPages(this);
        this.members = new Members(jdbi, activity);
        this.workspaceMembers = new WorkspaceMembers(jdbi);
        this.invitations = new Invitations(links, settings);
        this.memberPages = new MemberPages(this);
        this.managementApi = new ManagementApi(this);
        this.workspaceSettings = new WorkspaceSettings(jdbi);
        this.workspacePages = new WorkspacePages(this);
        this.limits = services.limits();
        this.mailbox = services.require(Mailbox.class);
        this.mailboxPages = new MailboxPages(this);
        this.pluginPages = new PluginPages(this);
        this.liveEvents = new LiveEvents(jdbi);
        this.contributedPages = new ContributedPages(this, services.transactions(), services.jsonValidation(), liveEvents);
        this.appSearch = new AppSearch(this, services.transactions());
        var provider = OidcSettings.from(services.config());
        var signInRules = new WorkspaceSignInStore(jdbi);
        var oidcSignIns = new OidcSignIns(jdbi);
        this.policy = new SignInPolicy(people, signInRules, oidcSignIns, provider.isPresent());
        this.oidcPages = provider.map(p -> new OidcPages(this, new OidcProvider(p, services.clock()), oidcSignIns,
                new ProviderAccounts(jdbi, people, signInRules, activity))).orElse(null);
        this.signInSettingsPages = provider.map(p -> new SignInSettingsPages(this, p, signInRules)).orElse(null);
        this.providerName = provider.map(OidcSettings::displayName).orElse(null);
        this.providerOrigin = provider.map(OidcSettings::issuerOrigin).orElse(null);
        this.shells = new Shells(settings, assets, contributedPages, signInSettingsPages != null);
    }

    /** Stops following events for open pages. */
    @Override
    public void close() {
        liveEvents.close();
    }

    /** The people-pages service plugins get through {@code PluginContext.service(PeoplePages.class)}. */
    public dev.lnp.api.internal.people.PeoplePages peoplePages() {
        return pluginPages;
    }

    @Override
    public void routing(HttpRules rules) {
        // JSON for automation with a session; listed in ManagementApi, before the catch-all page below.
        managementApi.routing(rules);
        rules.get("/", page(accountPages::home))
                .get("/assets/{version}/{name}", this::asset)
                .get("/sign-in", page(signIn::form))
                .post("/sign-in", page(signIn::request))
                .get("/sign-in/link", page(signIn::confirmPage))
                .post("/sign-in/link", page(signIn::useLink))
                .get("/workspaces", page(signIn::chooseWorkspace))
                .post("/workspaces", page(signIn::enterWorkspace))
                .post("/sign-out", page(signIn::signOut))
                .get("/sessions", page(accountPages::sessions))
                .post("/sessions/{id}/end", page(accountPages::endSession))
                .get("/activity", page(accountPages::activity))
                .get("/modules", page(workspacePages::modules))
                .post("/modules/{id}", page(workspacePages::switchModule))
                .get("/usage", page(workspacePages::usage))
                .get("/mailbox", page(mailboxPages::list))
                .get("/mailbox/{id}", page(mailboxPages::show))
                .get("/members", page(memberPages::list))
                .post("/members", page(memberPages::invite))
                .post("/members/{id}/role", page(memberPages::changeRole))
                .post("/members/{id}/remove", page(memberPages::remove))
                .post("/members/{id}/transfer", page(memberPages::transfer))
                .post("/members/{id}/resend", page(memberPages::resendInvitation))
                .get("/connections", page(connectionPages::list))
                .post("/connections", page(connectionPages::create))
                .get("/connections/{id}", page(connectionPages::show))
                .get("/connections/{id}/new-key", page(connectionPages::newKey))
                .post("/connections/{id}/rotate", page(connectionPages::rotate))
                .post("/connections/{id}/revoke", page(connectionPages::revoke));
        if (oidcPages != null) {
            rules.get("/sign-in/oidc", page(oidcPages::start))
                    .get("/sign-in/oidc/callback", page(oidcPages::callback))
                    .get("/sign-in-settings", page(signInSettingsPages::show))
                    .post("/sign-in-settings", page(signInSettingsPages::save));
        }
        // The page API's pages (plugins' and subsystems', e.g. webhooks), then the not-found page.
        contributedPages.routing(rules, "/console");
        rules
                .any(page(x -> x.render(404, "notice.jte", notice(x, "Page not found",
                        "There is no console page at this address.", "/console", "Go to the console"))));
    }

    /** A console page handler: its refusals and failures become readable pages, never a stack trace. */
    public interface PageHandler {
        void handle(ConsoleExchange exchange);
    }

    /** The console's handler for {@code handler}, with its session, refusal and error pages. */
    public Handler page(PageHandler handler) {
        return (ServerRequest req, ServerResponse res) -> {
            var exchange = new ConsoleExchange(req, res, this);
            // A refusal on a page of the application leads back to the application, not to the administration.
            boolean app = req.path().absolute().path().startsWith("/app");
            String home = app ? "/app" : "/console";
            String back = app ? "Back to the application" : "Back to the console";
            try {
                handler.handle(exchange);
            } catch (ConsoleExchange.Redirect redirect) {
                exchange.redirect(redirect.location);
            } catch (ConsoleExchange.Forbidden | ConsoleAuthorization.Denied refused) {
                exchange.render(403, "notice.jte", notice(exchange, "Not allowed", refused.getMessage(),
                        home, back));
            } catch (ConsolePages.NotFound missing) {
                exchange.render(404, "notice.jte", notice(exchange, "Not found", missing.getMessage(),
                        missing.backHref(), missing.backLabel()));
            } catch (dev.lnp.api.http.ApiProblem problem) {
                // A plugin page's handler refused (e.g. a 404 or 409 of its own): its words, its 4xx status.
                int status = problem.status() >= 400 && problem.status() < 500 ? problem.status() : 500;
                exchange.render(status, "notice.jte", notice(exchange, problem.title(), problem.detail(), home,
                        back));
            } catch (PageExchange.BadForm bad) {
                exchange.render(400, "notice.jte", notice(exchange, "The form could not be read", bad.getMessage(),
                        home, back));
            } catch (RuntimeException e) {
                if (http.isHangUp(e, res)) {
                    http.reportHangUp(req.prologue().method().text() + " /console"
                            + req.path().path(), e);
                    return;
                }
                LOG.log(Level.ERROR, "Console page " + req.path().path() + " failed", e);
                if (!res.isSent()) {
                    exchange.render(500, "notice.jte", notice(exchange, "Something went wrong",
                            "The console could not complete this request. It has been logged; try again.",
                            home, back));
                }
            }
        };
    }

    private void asset(ServerRequest req, ServerResponse res) {
        var found = assets.find(req.path().pathParameters().get("version"), req.path().pathParameters().get("name"));
        if (found.isEmpty()) {
            res.status(Status.NOT_FOUND_404).send();
            return;
        }
        res.header(HeaderNames.CONTENT_TYPE, found.get().contentType());
        // The URL changes whenever the content does, so the browser may keep this copy for a year.
        res.header(HeaderNames.CACHE_CONTROL, "public, max-age=31536000, immutable");
        res.header(HeaderNames.create("X-Content-Type-Options"), "nosniff");
        res.send(found.get().bytes());
    }

    /**
     * The layout's model for a page titled {@code title}, showing the navigation the session's role allows: the
     * application's shell on its addresses (its refusals and not-found pages too), the console's elsewhere.
     */
    public Chrome chrome(ConsoleExchange exchange, String title, String currentHref) {
        return shells.chrome(exchange, title, currentHref);
    }

    /** The layout's model for the person of {@code session} (null: nobody signed in). */
    Chrome chrome(ConsoleSession session, String title, String currentHref) {
        return shells.chrome(session, title, currentHref);
    }

    /** The layout's model for a page of the page API ({@link Shells#pageChrome}). */
    Chrome pageChrome(ConsoleSession session, String title, String currentHref) {
        return shells.pageChrome(session, title, currentHref, "");
    }

    /** The application's shell with {@code search} in its search box. */
    Chrome pageChrome(ConsoleSession session, String title, String currentHref, String search) {
        return shells.pageChrome(session, title, currentHref, search);
    }

    /** The workspace application's routes ({@code /app}): the pages plugins contribute there, and its home. */
    public HttpService application() {
        return rules -> {
            rules.get("/", page(this::applicationHome));
            rules.get(AppSearch.PATH.substring("/app".length()), page(appSearch::page));
            rules.get(AppSearch.SUGGESTIONS.substring("/app".length()), page(appSearch::suggestions));
            contributedPages.routing(rules, "/app");
            rules.any(page(x -> x.render(404, "notice.jte", notice(x, "Page not found",
                    "There is no page at this address.", "/app", "Go to the start page"))));
        };
    }

    private void applicationHome(ConsoleExchange x) {
        var session = x.requireWorkspaceSession();
        List<NavSection> nav = contributedPages.navigation(session, "/app", "/app");
        String first = nav.stream().flatMap(s -> s.items().stream()).map(NavItem::href).findFirst().orElse(null);
        if (first != null) {
            x.redirect(first);
            return;
        }
        x.render(200, "notice.jte", new Views.Notice(pageChrome(session, "Start", "/app"), "Nothing to work on yet",
                "No module of this workspace has pages yet. An owner or admin can switch modules on in the console.",
                "/console", "Go to the console"));
    }

    public Views.Notice notice(ConsoleExchange exchange, String heading, String text, String href, String label) {
        return new Views.Notice(chrome(exchange, heading, null), heading, text, href, label);
    }

    ConsoleSettings settings() {
        return settings;
    }

    /** The OpenID Connect provider's button label, or null when sign-in is by e-mailed link only. */
    String providerName() {
        return providerName;
    }

    /** The provider's origin, where signing out continues (the pages' forms may lead there); null without one. */
    String providerOrigin() {
        return providerOrigin;
    }

    SignInPolicy policy() {
        return policy;
    }

    /** Where signing out of the session continues at the OpenID Connect provider, if it began there. */
    java.util.Optional<java.net.URI> signOutAtProvider(java.util.UUID sessionId) {
        return oidcPages == null ? java.util.Optional.empty() : oidcPages.signOutAtProvider(sessionId);
    }

    ConsoleTemplates templates() {
        return templates;
    }

    ConsoleSessions sessions() {
        return sessions;
    }

    SignInLinks links() {
        return links;
    }

    SignInPages signInPages() {
        return signIn;
    }

    SignInThrottle throttle() {
        return throttle;
    }

    People people() {
        return people;
    }

    public ConsoleActivity activity() {
        return activity;
    }

    ConnectionAdmin connections() {
        return connections;
    }

    ConnectionActivity connectionActivity() {
        return connectionActivity;
    }

    PluginCatalog plugins() {
        return plugins;
    }

    HttpAnswers http() {
        return http;
    }

    WorkspaceSettings workspaceSettings() {
        return workspaceSettings;
    }

    RateLimits limits() {
        return limits;
    }

    Mailbox mailbox() {
        return mailbox;
    }

    Members members() {
        return members;
    }

    /** The read-only member directory pages get ({@code PageCall.members()}). */
    WorkspaceMembers workspaceMembers() {
        return workspaceMembers;
    }

    TransactionalMailer mailer() {
        return mailer;
    }

    /** How {@link Members} queues the invitation of someone the signed-in {@code session} invites. */
    Members.InvitationWriter invitationOf(ConsoleSession session) {
        return invitations.writer(mailer, templates, session.workspaceId(), session.workspaceName(), session.email());
    }
}
