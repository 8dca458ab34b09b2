package dev.lnp.outbound;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** An IPv4 or IPv6 network, such as {@code 10.0.0.0/8} or {@code fd00::/8}; a bare address is a network of one. */
public record Cidr(byte[] network, int prefix, String text) {

    public static Cidr parse(String text) {
        String trimmed = text.trim();
        int slash = trimmed.indexOf('/');
        String address = slash < 0 ? trimmed : trimmed.substring(0, slash);
        // Only literals: a host name here would make the allow-list depend on DNS.
        // An IPv4 literal needs its four parts: the resolver would read "10.0.0" as 10.0.0.0.
        if (!address.matches("[0-9A-Fa-f:.]+") || !(address.contains(".") || address.contains(":"))
                || !address.contains(":") && !address.matches("\\d{1,3}(\\.\\d{1,3}){3}")) {
            throw new IllegalArgumentException("not an IP network: " + text);
        }
        byte[] bytes;
        try {
            bytes = InetAddress.getByName(address).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP network: " + text, e);
        }
        int prefix;
        try {
            prefix = slash < 0 ? bytes.length * 8 : Integer.parseInt(trimmed.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not an IP network: " + text, e);
        }
        if (prefix < 0 || prefix > bytes.length * 8) {
            throw new IllegalArgumentException("prefix length out of range in " + text);
        }
        return new Cidr(bytes, prefix, trimmed);
    }

    public boolean contains(InetAddress address) {
        return matches(address.getAddress());
    }

    boolean matches(byte[] candidate) {
        if (candidate.length != network.length) {
            return false;
        }
        int full = prefix / 8;
        for (int i = 0; i < full; i++) {
            if (candidate[i] != network[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xFF << (8 - rest)) & 0xFF;
        return (candidate[full] & mask) == (network[full] & mask);
    }

    @Override
    public String toString() {
        return text;
    }
}
