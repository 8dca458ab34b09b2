package dev.lnp.distribution;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The module table of {@code docs/architecture.md}, read as the rules it states: for every module of the build, the
 * modules it may depend on. The document is the one place the layering is written down, so the check reads it
 * instead of repeating it.
 *
 * <p>A row names one or more module folders in backticks in its first cell ({@code plugins/*} stands for every
 * plugin folder no other row names), its JPMS name in the second (or {@code unnamed}) and what it may depend on in
 * the last: module folders in backticks, or {@code nothing}.
 */
record ModuleTable(Map<String, Set<String>> allowed, Map<String, String> jpmsNames) {

    static final String MARKER = "<!-- module-table -->";
    private static final Pattern TICKED = Pattern.compile("`([^`]+)`");

    static ModuleTable read(Path document, List<String> moduleFolders) throws IOException {
        List<String> lines = Files.readAllLines(document);
        int start = lines.indexOf(MARKER);
        if (start < 0) {
            throw new IllegalStateException(document + " has no line " + MARKER + " before its module table");
        }
        List<List<String>> rows = new ArrayList<>();
        for (int i = start + 1; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() && rows.isEmpty()) continue;
            if (!line.startsWith("|")) break;
            List<String> cells = cells(line);
            if (cells.get(0).equals("module") || cells.get(0).startsWith("---")) continue;
            rows.add(cells);
        }
        if (rows.isEmpty()) throw new IllegalStateException("no module table after " + MARKER + " in " + document);

        Map<String, Set<String>> allowed = new LinkedHashMap<>();
        Map<String, String> jpms = new LinkedHashMap<>();
        List<String> globbed = new ArrayList<>();
        for (List<String> row : rows) {
            Set<String> targets = new LinkedHashSet<>(ticked(row.get(row.size() - 1)));
            String name = ticked(row.get(1)).stream().findFirst().orElse(null);
            for (String module : ticked(row.get(0))) {
                if (module.endsWith("/*")) {
                    globbed.add(module);
                    allowed.put(module, targets);
                } else {
                    allowed.put(module, targets);
                    if (name != null) jpms.put(name, module);
                }
            }
        }
        for (String glob : globbed) {
            String prefix = glob.substring(0, glob.length() - 1);
            Set<String> targets = allowed.remove(glob);
            for (String folder : moduleFolders) {
                if (folder.startsWith(prefix) && !allowed.containsKey(folder)) allowed.put(folder, targets);
            }
        }
        return new ModuleTable(allowed, jpms);
    }

    boolean allows(String from, String to) {
        return from.equals(to) || allowed.getOrDefault(from, Set.of()).contains(to);
    }

    private static List<String> cells(String line) {
        String inner = line.substring(1, line.endsWith("|") ? line.length() - 1 : line.length());
        List<String> cells = new ArrayList<>();
        for (String cell : inner.split("\\|", -1)) cells.add(cell.strip());
        return cells;
    }

    private static List<String> ticked(String cell) {
        List<String> found = new ArrayList<>();
        Matcher m = TICKED.matcher(cell);
        while (m.find()) found.add(m.group(1));
        return found;
    }
}
