package dev.lnp.cli;

import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.TextTable;
import picocli.CommandLine.IHelpSectionRenderer;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * The "Commands:" list of {@code --help} and {@code platform help}, with each command's whole description wrapped
 * to the width. picocli's own list shows only the first line of a description given as several lines, which cut
 * those descriptions off mid-sentence.
 */
final class CommandListRenderer implements IHelpSectionRenderer {

    private static final int NAME_INDENT = 2;
    private static final int GAP = 2;

    /** Puts this list into the help of {@code command} and of every command under it. */
    static void install(CommandLine command) {
        command.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_COMMAND_LIST, new CommandListRenderer());
        command.getSubcommands().values().forEach(CommandListRenderer::install);
    }

    /**
     * What the list says of a command, as one paragraph: its header when it has one (a short line picocli's own
     * commands carry, such as {@code help}), else its description; the lines joined with single spaces.
     */
    static String description(UsageMessageSpec usage) {
        String[] lines = usage.header().length > 0 ? usage.header() : usage.description();
        return String.join(" ", lines).replace("%n", " ").replaceAll("\\s+", " ").strip();
    }

    @Override
    public String render(Help help) {
        Map<String, Help> subcommands = help.subcommands();
        if (subcommands.isEmpty()) {
            return "";
        }
        int names = subcommands.values().stream()
                .mapToInt(sub -> sub.commandNamesText(", ").plainString().length()).max().orElse(0);
        int nameColumn = NAME_INDENT + names;
        int width = help.commandSpec().usageMessage().width();
        TextTable table = TextTable.forColumns(help.colorScheme(),
                new Column(nameColumn, NAME_INDENT, Column.Overflow.SPAN),
                new Column(Math.max(20, width - nameColumn), GAP, Column.Overflow.WRAP));
        for (Help sub : subcommands.values()) {
            table.addRowValues(sub.commandNamesText(", "),
                    help.colorScheme().text(description(sub.commandSpec().usageMessage())));
        }
        return table.toString();
    }
}
