package dev.lnp.distribution;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code <form method="post">} of a server-rendered page, read the way a browser would submit it untouched:
 * hidden and text inputs with their values, checked checkboxes ("on" without a value), the selected option of each
 * select (else its first), textareas with their text. Enough for the platform's own pages, which are plain HTML.
 */
final class HtmlForm {

    private static final Pattern FORM = Pattern.compile("(?s)<form\\b([^>]*)>(.*?)</form>");
    private static final Pattern INPUT = Pattern.compile("(?s)<input\\b([^>]*)>");
    private static final Pattern SELECT = Pattern.compile("(?s)<select\\b([^>]*)>(.*?)</select>");
    private static final Pattern OPTION = Pattern.compile("(?s)<option\\b([^>]*)>");
    private static final Pattern TEXTAREA = Pattern.compile("(?s)<textarea\\b([^>]*)>(.*?)</textarea>");
    private static final Pattern BUTTON = Pattern.compile("(?s)<button\\b([^>]*)>");

    final String action;
    final Map<String, String> fields;
    /** The submit buttons' values by name, e.g. {@code decision -> [approve, deny]} as one joined string. */
    final String buttons;

    private HtmlForm(String action, Map<String, String> fields, String buttons) {
        this.action = action;
        this.fields = fields;
        this.buttons = buttons;
    }

    /** The first post form of {@code html} whose action is {@code wanted}. */
    static HtmlForm find(String html, String wanted) {
        Matcher form = FORM.matcher(html);
        while (form.find()) {
            String action = unescape(attribute(form.group(1), "action"));
            if (wanted.equals(action)
                    && "post".equalsIgnoreCase(attribute(form.group(1), "method"))) {
                return parse(action, form.group(2));
            }
        }
        throw new AssertionError("no post form with the action " + wanted + " in:\n" + html);
    }

    /** A copy with {@code name} set to {@code value} (added when the form lacks it). */
    HtmlForm with(String name, String value) {
        Map<String, String> copy = new LinkedHashMap<>(fields);
        copy.put(name, value);
        return new HtmlForm(action, copy, buttons);
    }

    private static HtmlForm parse(String action, String body) {
        Map<String, String> fields = new LinkedHashMap<>();
        Matcher input = INPUT.matcher(body);
        while (input.find()) {
            String attrs = input.group(1);
            String name = attribute(attrs, "name");
            String type = attribute(attrs, "type");
            if (name == null) {
                continue;
            }
            if ("checkbox".equals(type) || "radio".equals(type)) {
                if (hasFlag(attrs, "checked")) {
                    String value = attribute(attrs, "value");
                    fields.put(name, value == null ? "on" : unescape(value));
                }
            } else if (!"submit".equals(type)) {
                String value = attribute(attrs, "value");
                fields.put(name, value == null ? "" : unescape(value));
            }
        }
        Matcher select = SELECT.matcher(body);
        while (select.find()) {
            String first = null;
            String chosen = null;
            Matcher option = OPTION.matcher(select.group(2));
            while (option.find()) {
                String value = attribute(option.group(1), "value");
                first = first == null ? value : first;
                if (hasFlag(option.group(1), "selected")) {
                    chosen = value;
                }
            }
            String value = chosen != null ? chosen : first;
            fields.put(attribute(select.group(1), "name"), value == null ? "" : unescape(value));
        }
        Matcher textarea = TEXTAREA.matcher(body);
        while (textarea.find()) {
            fields.put(attribute(textarea.group(1), "name"), unescape(textarea.group(2)));
        }
        StringBuilder buttons = new StringBuilder();
        Matcher button = BUTTON.matcher(body);
        while (button.find()) {
            String name = attribute(button.group(1), "name");
            if (name != null) {
                buttons.append(name).append('=').append(attribute(button.group(1), "value")).append(' ');
            }
        }
        return new HtmlForm(action, fields, buttons.toString().strip());
    }

    private static String attribute(String attrs, String name) {
        Matcher m = Pattern.compile("(?:^|\\s)" + name + "=\"([^\"]*)\"").matcher(attrs);
        return m.find() ? m.group(1) : null;
    }

    private static boolean hasFlag(String attrs, String name) {
        return Pattern.compile("(?:^|\\s)" + name + "(?:[\\s=>/]|$)").matcher(attrs).find();
    }

    static String unescape(String html) {
        return html == null ? null : html.replace("&quot;", "\"").replace("&#34;", "\"").replace("&#39;", "'").replace("&#x27;", "'")
                .replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    }
}
