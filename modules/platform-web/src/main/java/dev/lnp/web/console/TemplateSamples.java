package dev.lnp.web.console;

import dev.lnp.api.internal.console.Choice;
import dev.lnp.api.internal.console.Chrome;
import dev.lnp.api.internal.console.NavItem;
import dev.lnp.api.internal.console.NavSection;
import dev.lnp.api.internal.console.SignInInvitations;
import dev.lnp.api.internal.keys.ConnectionAdmin;
import dev.lnp.api.internal.mail.Mailbox;
import dev.lnp.api.internal.subsystem.TemplateRender;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Every console and mail template of the core, each with a model that reaches its loops and branches (lists with
 * an entry, a signed-in person with a workspace). {@code platform doctor} renders them all; a page or mail that
 * cannot be rendered on this installation shows up there rather than as a 500 for the first person who needs it.
 * {@code layout.jte} and the {@link #PARTS} are parts of other pages and are rendered with them.
 */
public final class TemplateSamples {

    private TemplateSamples() {
    }

    /** The templates others are rendered inside of or include, not rendered on their own. */
    public static final List<String> PARTS = List.of("layout.jte", "pagetable.jte",
            "pagelinks.jte", "pageonce.jte", "pagefield.jte", "pagechart.jte");

    public static List<TemplateRender> core(ConsoleTemplates templates) {
        Instant now = Instant.parse("2026-01-02T03:04:05Z");
        UUID id = UUID.fromString("00000000-0000-4000-8000-000000000001");
        var chrome = new Chrome("Sample", "/console/assets/1/console.css", "/console/assets/1/console.js",
                "owner@example.com", "Acme", "owner", "csrf-token", List.of(new NavSection("Workspace",
                        List.of(new NavItem("Members", "/console/members", true)))), Chrome.CONSOLE, "/console", null, null);
        var signedOut = new Chrome("Sign in", "/console/assets/1/console.css", "/console/assets/1/console.js",
                null, null, null, null, List.of(), Chrome.CONSOLE, "/console", null, null);
        var application = new Chrome("Search", "/console/assets/1/console.css", "/console/assets/1/console.js",
                "owner@example.com", "Acme", "owner", "csrf-token", List.of(new NavSection("CRM",
                        List.of(new NavItem("Contacts", "/app/crm/contacts", false)))), "Acme", "/app", "ada",
                "/console/assets/1/htmx.min.js");
        var choice = new Choice("crm:read", "crm:read", true);
        var key = new ConnectionAdmin.KeyInfo("lnp_abcd", false, now, null, null, now);
        var connection = new ConnectionAdmin.Listed(id, "Reporting", id, List.of("crm:read"), "read-only", now, now,
                null, List.of(key));
        var form = new Views.ConnectionForm("Reporting", List.of(choice), List.of(choice), "2026-12-31",
                List.of(choice), true, "crm_list", "crm_delete", true);
        var mail = new Views.LinkMail("https://lnp.example.com/console/sign-in/link?token=sample", "15 minutes",
                "Someone (hopefully you) asked to sign in to the workspace platform with this address.", "Sign in");
        var summary = new Mailbox.Summary(id, id, "sign-in-link", "ada@example.com", "Your sign-in link", "local", 0,
                now, now, null);
        var field = new SchemaForm.Field("name", "Name", "What people call it", "text", true, 200, null, null,
                List.of(), "Big deal", false, "must not be blank");
        var select = new SchemaForm.Field("stage", "Stage", null, "select", false, null, null, null, List.of(choice),
                null, false, null);
        var pageChoice = new PageViews.Choice("lost", "Lost", false);
        var pageTable = new PageViews.Table("Deals", List.of(new PageViews.Heading("Name", "/app/crm/deals?sort=-name",
                "ascending"), new PageViews.Heading("Stage", null, null)), List.of(List.of(
                new PageViews.Cell("Big deal", "/app/crm/deals/1"), new PageViews.Cell("won", null))), "No deals yet");
        return List.of(
                html(templates, "activity.jte", new Views.ActivityPage(chrome,
                        List.of(new ConsoleActivity.Entry(now, "owner@example.com", "member.invited", "ada@example.com",
                                "role member")))),
                html(templates, "confirm.jte", new Views.ConfirmLink(signedOut, "csrf-token", "sample-token")),
                html(templates, "confirmaction.jte", new Views.ConfirmAction(chrome, "Revoke Reporting?",
                        "Its keys stop working at once.", "/console/connections/" + id + "/revoke",
                        List.of(new Choice("return", "/console/connections", false)), "Revoke", "/console/connections")),
                html(templates, "connection.jte", new Views.ConnectionPage(chrome, connection, "crm_list allowed",
                        List.of(new Views.RequestRow(now, "rest", "GET", "/api/v1/contacts", 200, "3.1")),
                        List.of(new Views.ToolCallRow(now, "crm_list", "ok", null, "4.2")), List.of("sample error"))),
                html(templates, "connections.jte", new Views.ConnectionsPage(chrome, List.of(connection), form,
                        List.of("sample error"), List.of("crm_list", "crm_delete"))),
                html(templates, "keyissued.jte", new Views.KeyIssued(chrome, id, "Reporting", "lnp_sample_key",
                        "created")),
                html(templates, "mail/link.jte", mail),
                text(templates, "signin.jte", mail),
                html(templates, "mailbox.jte", new Views.MailboxPage(chrome, List.of(summary), true,
                        new Mailbox.Message(summary, "LNP <no-reply@example.com>", "<sample@example.com>", "text",
                                "<p>html</p>"))),
                html(templates, "members.jte", new Views.MembersPage(chrome,
                        List.of(new Members.Member(id, "ada@example.com", "admin", now, true),
                                new Members.Member(id, "bob@example.com", "member", now, false,
                                        new Members.InvitationMail("failed", 3, "sample error"))), true, true,
                        id.toString(), List.of("sample error"), "Invitation sent")),
                html(templates, "modules.jte", new Views.ModulesPage(chrome,
                        List.of(new Views.Module("crm", true, 12, 8, 4, List.of("crm:read"))))),
                html(templates, "notice.jte", new Views.Notice(chrome, "Heading", "Text", "/console", "Back")),
                html(templates, "pagelist.jte", new PageViews.ListPage(chrome, "Saved", List.of(new PageViews.Link(
                        "New deal", "/app/crm/deals/new", false, null)), "/app/crm/deals",
                        List.of(new PageViews.Filter("q", "Search", "search", "big", List.of()),
                                new PageViews.Filter("stage", "Stage", "choice", "won", List.of(pageChoice)),
                                new PageViews.Filter("status", "Status", "any-of", "", List.of(pageChoice))),
                        List.of(new PageViews.Choice("sort", "name", true)), pageTable, 2, "/app/crm/deals?page=1",
                        "/app/crm/deals?page=3", "csrf-token", "/app/_live?path=%2Fapp%2Fcrm%2Fdeals", null)),
                html(templates, "pagelist.jte", new PageViews.ListPage(chrome, null, List.of(), "/app/crm/deals",
                        List.of(), List.of(), pageTable, 1, null, null, "csrf-token", null, null,
                        new PageViews.Selection("deal_ids", "/app/crm/deals/bulk", "Change the ticked deals",
                                java.util.Collections.nCopies(pageTable.rows().size(), id.toString()), List.of(
                                new SchemaForm.Field("stage", "Stage", null, "select", false, null, null, null,
                                        List.of(choice), "", false, null),
                                new SchemaForm.Field("tags", "Tags", "Ticked are added", "checkboxes", false, null,
                                        null, null, List.of(choice), "", false, "Choose at least 1.")), "Apply"))),
                html(templates, "pagedetail.jte", new PageViews.DetailPage(chrome, "Saved",
                        List.of(new PageViews.Fact("Stage", "won")), List.of(pageTable),
                        List.of(new PageViews.Link("Edit", "/app/crm/deals/1/edit", false, null),
                                new PageViews.Link("Delete", "/app/crm/deals/1/delete", true, "Delete it for good")),
                        "csrf-token", null, new PageViews.ShownOnce("Signing secret", "whsec_sample",
                                "The previous secret keeps signing for a day."), List.of(new PageViews.InlineForm(
                                "form1", "Reply", "/app/support/tickets/1/reply", "/app/support/tickets/1",
                                List.of(new SchemaForm.Field("assignee_id", "Assignee", null, "select", false, null,
                                        null, null, List.of(choice), "", false, "Choose one of the options.", "form1-",
                                        "/app/_choices?path=%2Fapp%2Fsupport%2Ftickets%2F1")),
                                List.of(new PageViews.ErrorLink("Assignee: Choose one of the options.",
                                        "#form1-assignee_id")), null, "Send reply")))),
                html(templates, "pagechoices.jte", new PageViews.Choices(List.of(choice), false, true)),
                html(templates, "pageboard.jte", new PageViews.BoardPage(chrome, "Moved", "stage", List.of(
                        new PageViews.Lane("won", "Won", "1 deal · 100", List.of(new PageViews.Card("1", "Big deal", "EUR 100",
                                "/app/crm/deals/1", "/app/crm/deals/1/stage", List.of(pageChoice)))),
                        new PageViews.Lane("lost", "Lost", null, List.of())), List.of(), "csrf-token",
                        "/app/_live?path=%2Fapp%2Fcrm%2Fboard", null)),
                html(templates, "pagedashboard.jte", DashboardRendering.page(chrome, new dev.lnp.api.pages.DashboardView(
                        "CRM", List.of(new dev.lnp.api.pages.Figure("Open deals", "3", "Open or on hold", "/app/crm/deals")),
                        List.of(sampleChart(dev.lnp.api.pages.Chart.Kind.BAR), sampleChart(dev.lnp.api.pages.Chart.Kind.LINE),
                                dev.lnp.api.pages.Chart.of(dev.lnp.api.pages.Chart.Kind.STACKED_BAR, "Nothing yet",
                                        List.of())), List.of()), "Saved", List.of(), "csrf-token", null)),
                html(templates, "pluginpage.jte", new Views.PluginPage(chrome, "<p>A plugin's page</p>")),
                html(templates, "pageform.jte", new PageViews.FormPage(chrome, "Edit deal",
                        "/app/crm/deals/1/edit", "/app/crm/deals/1", List.of(field, select),
                        List.of(new PageViews.ErrorLink("Name must not be blank", "#f-name")), "1 error", "Save",
                        "csrf-token")),
                html(templates, "search.jte", new Views.SearchPage(application, "ada", List.of(
                        new Views.SearchGroup("Contacts", List.of(new dev.lnp.api.pages.SearchHit("Ada Lovelace",
                                "ada@example.com", "/app/crm/contacts/1"))),
                        new Views.SearchGroup("Deals", List.of())), null)),
                html(templates, "search.jte", new Views.SearchPage(application, "", List.of(), "sample error")),
                html(templates, "searchsuggestions.jte", new Views.SearchPage(application, "ada", List.of(
                        new Views.SearchGroup("Contacts", List.of(new dev.lnp.api.pages.SearchHit("Ada Lovelace",
                                "ada@example.com", "/app/crm/contacts/1")))), null)),
                html(templates, "searchsuggestions.jte", new Views.SearchPage(application, "a".repeat(201), List.of(),
                        "sample error")),
                html(templates, "sessions.jte", new Views.SessionsPage(chrome, List.of(new ConsoleSessions.Listed(id,
                        "Acme", now, now, now, "Mozilla/5.0", "127.0.0.1", true)))),
                html(templates, "signin.jte", new Views.SignIn(signedOut, "csrf-token", "ada@example.com",
                        "sample error", "Acme ID")),
                html(templates, "signinsettings.jte", new Views.SignInSettingsPage(chrome, "Acme ID", "groups",
                        new Views.SignInRulesForm("example.com", true, "member", "lnp-admins = admin", true),
                        "sample error", "Sign-in settings saved.")),
                html(templates, "usage.jte", new Views.UsagePage(chrome,
                        List.of(new Views.QuotaUsage("crm_writes", "crm", 10, 100, true)), 600, 300,
                        List.of(new Views.ConnectionLimit("Reporting", 60, null)))),
                html(templates, "workspaces.jte", new Views.ChooseWorkspace(chrome,
                        List.of(new SignInInvitations.Membership(id, id, "Acme", "owner", "owner@example.com")))));
    }

    private static TemplateRender html(ConsoleTemplates templates, String name, Object model) {
        return new TemplateRender(name, () -> templates.render(name, model));
    }

    private static TemplateRender text(ConsoleTemplates templates, String name, Object model) {
        return new TemplateRender("text/" + name, () -> templates.renderText(name, model));
    }

    private static dev.lnp.api.pages.Chart sampleChart(dev.lnp.api.pages.Chart.Kind kind) {
        return dev.lnp.api.pages.Chart.of(kind, "Deals won and lost", List.of("Jan", "Feb")).unit("deals")
                .summary("Closed per month.")
                .series(dev.lnp.api.pages.Chart.Series.of("Won", List.of(2.0, 0.0))
                                .linkedTo(java.util.Arrays.asList("/app/crm/deals?status=closed_won", null)),
                        dev.lnp.api.pages.Chart.Series.of("Lost", List.of(1.0, 3.0)));
    }
}
