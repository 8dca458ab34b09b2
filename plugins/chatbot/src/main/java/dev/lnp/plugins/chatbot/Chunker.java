package dev.lnp.plugins.chatbot;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Cuts a document's sections into passages of a few hundred words: a heading starts a new passage, paragraphs under
 * it are joined while they fit, and a paragraph longer than a passage is cut between sentences. Short passages are
 * kept as they are: a precise heading with two sentences under it is exactly what answers a question.
 */
final class Chunker {

    static final int MAX_WORDS = 220;
    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+");
    private static final Pattern SPACE = Pattern.compile("\\s+");

    private Chunker() {
    }

    /** A section shorter than this (an article's one-line lead) joins the next one instead of standing alone. */
    static final int MIN_WORDS = 30;

    static List<Passage> passages(String title, List<Section> sections) {
        List<Passage> out = new ArrayList<>();
        List<String> carried = new ArrayList<>();
        for (int i = 0; i < sections.size(); i++) {
            Section section = sections.get(i);
            if (!carried.isEmpty()) {
                List<String> joined = new ArrayList<>(carried);
                joined.addAll(section.paragraphs());
                section = new Section(section.heading(), section.anchor(), joined);
                carried.clear();
            }
            if (i + 1 < sections.size() && words(String.join(" ", section.paragraphs())) < MIN_WORDS
                    && section.heading().isEmpty()) {
                carried.addAll(section.paragraphs());
                continue;
            }
            StringBuilder current = new StringBuilder();
            int words = 0;
            for (String paragraph : pieces(section.paragraphs())) {
                int n = words(paragraph);
                if (words > 0 && words + n > MAX_WORDS) {
                    out.add(new Passage(title, section.heading(), section.anchor(), current.toString()));
                    current.setLength(0);
                    words = 0;
                }
                if (!current.isEmpty()) {
                    current.append("\n\n");
                }
                current.append(paragraph);
                words += n;
            }
            if (words > 0) {
                out.add(new Passage(title, section.heading(), section.anchor(), current.toString()));
            }
        }
        return out;
    }

    /** The paragraphs, each longer than a passage cut into runs of whole sentences. */
    private static List<String> pieces(List<String> paragraphs) {
        List<String> out = new ArrayList<>();
        for (String p : paragraphs) {
            String text = p.strip();
            if (text.isEmpty()) {
                continue;
            }
            if (words(text) <= MAX_WORDS) {
                out.add(text);
                continue;
            }
            StringBuilder run = new StringBuilder();
            int words = 0;
            for (String sentence : SENTENCE_END.split(text)) {
                int n = words(sentence);
                if (words > 0 && words + n > MAX_WORDS) {
                    out.add(run.toString());
                    run.setLength(0);
                    words = 0;
                }
                if (!run.isEmpty()) {
                    run.append(' ');
                }
                run.append(sentence);
                words += n;
            }
            if (words > 0) {
                out.add(run.toString());
            }
        }
        return out;
    }

    static int words(String text) {
        String t = text.strip();
        return t.isEmpty() ? 0 : SPACE.split(t).length;
    }

    /** A heading's anchor as common site generators make it: lower case, letters and digits, words joined by '-'. */
    static String slug(String heading) {
        String s = Normalizer.normalize(heading, Normalizer.Form.NFKD).replaceAll("\\p{M}", "")
                .toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}\\s-]", "").strip().replaceAll("\\s+", "-");
        return s;
    }
}
