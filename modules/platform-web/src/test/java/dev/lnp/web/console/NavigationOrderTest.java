package dev.lnp.web.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lnp.api.internal.console.NavItem;
import java.util.List;
import org.junit.jupiter.api.Test;

class NavigationOrderTest {

    @Test
    void aHeadingsHomeLeadsItWhicheverPluginAddedItsEntriesFirst() {
        var inbox = new NavItem("Chat inbox", "/app/chat", false);
        var home = new NavItem("Overview", "/app/support", false);
        var tickets = new NavItem("Tickets", "/app/support/tickets", false);
        assertEquals(List.of(home, inbox, tickets),
                ContributedPages.homeFirst("/app", "Support", List.of(inbox, home, tickets)));
        assertEquals(List.of(inbox, tickets), ContributedPages.homeFirst("/app", "Support", List.of(inbox, tickets)),
                "a heading without a home keeps the order it was given");
        var crm = new NavItem("Overview", "/app/crm", true);
        assertEquals(List.of(crm, inbox), ContributedPages.homeFirst("/app", "CRM", List.of(inbox, crm)));
    }
}
