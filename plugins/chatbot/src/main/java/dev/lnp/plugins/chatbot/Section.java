package dev.lnp.plugins.chatbot;

import java.util.List;

/** A heading of a document (empty before the first one), its anchor and the paragraphs under it. */
record Section(String heading, String anchor, List<String> paragraphs) {
}
