package dev.lnp.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.internal.mail.Mailbox;
import dev.lnp.api.internal.openapi.OpenApiDocuments;
import dev.lnp.api.mail.Mailer;
import dev.lnp.api.mail.OutgoingMail;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What subsystems offer one another and plugins, and the refusals of an offer that cannot be kept apart. */
class KernelServicesTest {

    private static final Mailer MAILER = new Mailer() {
        @Override
        public UUID send(OutgoingMail mail) {
            return UUID.randomUUID();
        }

        @Override
        public boolean localMailbox() {
            return true;
        }
    };

    private static final Mailbox MAILBOX = new Mailbox() {
        @Override
        public List<Summary> list(Query query) {
            return List.of();
        }

        @Override
        public Optional<Message> show(UUID id) {
            return Optional.empty();
        }
    };

    private static KernelServices services() {
        return new KernelServices(new KernelServices.Kernel(null, null, null, null, null, null, null, null, null, null,
                null), List.of());
    }

    @Test
    void anOfferedServiceIsFoundByItsTypeAndPluginsSeeOnlyThoseOfThePublicApi() {
        var services = services();
        services.add("mail", Map.of(Mailer.class, MAILER, Mailbox.class, MAILBOX));
        assertSame(MAILER, services.require(Mailer.class));
        assertSame(MAILBOX, services.service(Mailbox.class).orElseThrow());
        assertEquals(Map.of(Mailer.class, MAILER), services.offeredToPlugins(),
                "the mailbox of every workspace's mail is for subsystems only");
    }

    @Test
    void theOpenApiDocumentsASubsystemOffersReachFirstPartyPlugins() {
        var services = services();
        OpenApiDocuments documents = (title, version, description, server, tag, routes) -> null;
        services.add("openapi", Map.of(OpenApiDocuments.class, documents));
        assertEquals(Map.of(OpenApiDocuments.class, documents), services.offeredToPlugins());
    }

    @Test
    void aMissingServiceNamesItsTypeAndATypeOfferedTwiceOrWronglyFailsTheStart() {
        var services = services();
        var missing = assertThrows(IllegalStateException.class, () -> services.require(Mailer.class));
        assertTrue(missing.getMessage().contains("dev.lnp.api.mail.Mailer is offered by no module"),
                missing.getMessage());
        services.add("mail", Map.of(Mailer.class, MAILER));
        var twice = assertThrows(IllegalStateException.class, () -> services.add("other", Map.of(Mailer.class, MAILER)));
        assertTrue(twice.getMessage().startsWith("other offers dev.lnp.api.mail.Mailer, already offered by "),
                twice.getMessage());
        var wrong = assertThrows(IllegalStateException.class, () -> services.add("other", Map.of(Mailbox.class, MAILER)));
        assertTrue(wrong.getMessage().contains("as dev.lnp.api.internal.mail.Mailbox, which it is not"),
                wrong.getMessage());
    }
}
