package dev.lnp.plugins.chatbot;

import java.text.Normalizer;
import java.util.Locale;
import java.util.regex.Pattern;

/** Recognises a visitor asking for a person in the languages the knowledge responder searches. */
final class HandoffIntent {

    private static final Pattern ASK = Pattern.compile(
            "\\b(human|real person|a person|someone|somebody|an agent|a real agent|customer service|support agent"
                    + "|operator|mensch|mitarbeiter|menschen|une personne|un humain|un agent|conseiller"
                    + "|una persona|un humano|un agente|iemand|een mens|medewerker)\\b");
    private static final Pattern VERB = Pattern.compile(
            "\\b(talk|speak|chat|connect|contact|want|need|get|give|transfer|reach|sprechen|reden|verbinden"
                    + "|parler|hablar|praten|spreken)\\b|\\bto a\\b|mit (einem|einer)\\b");

    private HandoffIntent() {
    }

    static boolean asksForPerson(String text) {
        String t = Normalizer.normalize(text.toLowerCase(Locale.ROOT), Normalizer.Form.NFC);
        return ASK.matcher(t).find() && (VERB.matcher(t).find() || t.strip().split("\\s+").length <= 3);
    }
}
