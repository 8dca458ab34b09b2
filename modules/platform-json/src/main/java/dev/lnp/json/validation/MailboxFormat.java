package dev.lnp.json.validation;

import com.networknt.schema.ExecutionContext;
import com.networknt.schema.format.Format;
import java.util.regex.Pattern;

/**
 * The {@code email} format as RFC 5321 syntax only. The validator's own check also requires a top-level domain
 * from the public registry, which refuses the addresses on-premises deployments live with ({@code
 * ops@build.internal}, {@code a@corp.lan}); deliverability is not something a syntax check can know anyway.
 * Accepted: a dot-atom local part of at most 64 characters, then a host name of at least two labels (the last
 * not all digits, at most 253 characters) or an address literal ({@code [192.0.2.1]}, {@code [IPv6:…]}).
 */
final class MailboxFormat implements Format {

    private static final String ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
    private static final Pattern LOCAL_PART = Pattern.compile(ATOM + "(?:\\." + ATOM + ")*");
    private static final String LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
    private static final Pattern HOST = Pattern.compile(LABEL + "(?:\\." + LABEL + ")+");
    private static final Pattern ALL_DIGITS = Pattern.compile("[0-9]+");
    private static final Pattern IPV4_LITERAL = Pattern.compile(
            "\\[(?:(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])]");
    private static final Pattern IPV6_LITERAL = Pattern.compile("\\[IPv6:[0-9A-Fa-f:.]{2,45}]");

    @Override
    public String getName() {
        return "email";
    }

    @Override
    public boolean matches(ExecutionContext executionContext, String value) {
        int at = value.lastIndexOf('@');
        if (at < 1) {
            return false;
        }
        String local = value.substring(0, at);
        String domain = value.substring(at + 1);
        return local.length() <= 64 && LOCAL_PART.matcher(local).matches() && validDomain(domain);
    }

    private static boolean validDomain(String domain) {
        if (domain.startsWith("[")) {
            return IPV4_LITERAL.matcher(domain).matches() || IPV6_LITERAL.matcher(domain).matches();
        }
        if (domain.length() > 253 || !HOST.matcher(domain).matches()) {
            return false;
        }
        return !ALL_DIGITS.matcher(domain.substring(domain.lastIndexOf('.') + 1)).matches();
    }
}
