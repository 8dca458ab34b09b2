package dev.lnp.cli;

import dev.lnp.core.auth.Connections.LegacyKey;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The input of {@code key import-legacy}: one {@code connection,key} pair per line; blank lines and lines starting
 * with {@code #} are skipped. Keys come from a file or standard input, never from the command line, where
 * {@code ps} and the shell history would keep them. Problems are named by line number, never by the key.
 */
final class LegacyKeyLines {

    private LegacyKeyLines() {
    }

    static List<LegacyKey> read(Reader input) throws IOException {
        List<LegacyKey> keys = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        BufferedReader reader = new BufferedReader(input);
        int number = 0;
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            number++;
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            String[] fields = trimmed.split(",", -1);
            if (fields.length != 2) {
                problems.add("line " + number + ": expected connection,key");
                continue;
            }
            UUID connection;
            try {
                connection = UUID.fromString(fields[0].strip());
            } catch (IllegalArgumentException e) {
                problems.add("line " + number + ": the connection is not a UUID");
                continue;
            }
            keys.add(new LegacyKey(number, connection, fields[1].strip()));
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(problems.size() + " bad line(s), nothing imported: "
                    + String.join("; ", problems));
        }
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("no connection,key lines in the input, nothing imported");
        }
        return keys;
    }
}
