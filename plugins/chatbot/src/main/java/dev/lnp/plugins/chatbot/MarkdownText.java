package dev.lnp.plugins.chatbot;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sections of a Markdown document: ATX headings ({@code ## Title}) start sections, blank lines end paragraphs,
 * fenced code stays one paragraph. Inline markup is reduced to its words (links to their text, emphasis and code
 * marks dropped), which is what search and the embedding read. The first level-1 heading is the document's title.
 */
final class MarkdownText {

    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern IMAGE = Pattern.compile("!\\[([^\\]]*)]\\([^)]*\\)");
    private static final Pattern LINK = Pattern.compile("\\[([^\\]]*)]\\([^)]*\\)");
    private static final Pattern MARKS = Pattern.compile("(\\*\\*|__|\\*|`|~~)");
    private static final Pattern FRONT_MATTER = Pattern.compile("\\A---\\R.*?\\R---\\R", Pattern.DOTALL);

    record Document(String title, List<Section> sections) {
    }

    private MarkdownText() {
    }

    static Document parse(String markdown) {
        String text = FRONT_MATTER.matcher(markdown.replace("\r\n", "\n")).replaceFirst("");
        List<Section> sections = new ArrayList<>();
        String title = null;
        String heading = "";
        List<String> paragraphs = new ArrayList<>();
        StringBuilder paragraph = new StringBuilder();
        boolean fenced = false;
        for (String line : text.split("\n", -1)) {
            if (line.strip().startsWith("```") || line.strip().startsWith("~~~")) {
                fenced = !fenced;
                continue;
            }
            Matcher h = fenced ? null : HEADING.matcher(line);
            if (h != null && h.matches()) {
                flush(paragraph, paragraphs);
                String words = inline(h.group(2));
                if (h.group(1).length() == 1 && title == null) {
                    title = words;
                    if (!paragraphs.isEmpty()) {
                        sections.add(new Section(heading, Chunker.slug(heading), paragraphs));
                        paragraphs = new ArrayList<>();
                    }
                    continue;
                }
                if (!paragraphs.isEmpty()) {
                    sections.add(new Section(heading, Chunker.slug(heading), paragraphs));
                }
                paragraphs = new ArrayList<>();
                heading = words;
            } else if (!fenced && line.isBlank()) {
                flush(paragraph, paragraphs);
            } else {
                if (!paragraph.isEmpty()) {
                    paragraph.append(fenced ? "\n" : " ");
                }
                paragraph.append(fenced ? line : inline(line.strip()));
            }
        }
        flush(paragraph, paragraphs);
        if (!paragraphs.isEmpty()) {
            sections.add(new Section(heading, Chunker.slug(heading), paragraphs));
        }
        return new Document(title, sections);
    }

    private static void flush(StringBuilder paragraph, List<String> paragraphs) {
        if (!paragraph.toString().isBlank()) {
            paragraphs.add(paragraph.toString().strip());
        }
        paragraph.setLength(0);
    }

    static String inline(String line) {
        String s = IMAGE.matcher(line).replaceAll("$1");
        s = LINK.matcher(s).replaceAll("$1");
        s = MARKS.matcher(s).replaceAll("");
        return s.replaceFirst("^>\\s*", "");
    }
}
