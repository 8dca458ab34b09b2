package dev.lnp.outbound;

import dev.lnp.api.outbound.OutboundRefusal;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Keeps requests to addresses people give (webhook receivers, a language model's base URL) away from the
 * deployment's own networks (SSRF). A URL must be http or https and every address its host resolves to must be
 * public, unless it lies in an allow-listed network. The check runs when the URL is saved and again for every
 * connection, which then goes to the very address that was checked, so a name re-pointed to an inner address after
 * the first check (DNS rebinding) gets nowhere.
 */
public final class AddressGuard {

    /** Looks a host name up; replaceable in tests to play a DNS server that changes its answer. */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    private record Blocked(Cidr network, String reason) {
    }

    private static final List<Blocked> BLOCKED = List.of(
            blocked("0.0.0.0/8", "an unspecified address"),
            blocked("10.0.0.0/8", "a private address"),
            blocked("100.64.0.0/10", "a shared (carrier-grade NAT) address"),
            blocked("127.0.0.0/8", "a loopback address"),
            blocked("169.254.0.0/16", "a link-local address (cloud metadata lives here)"),
            blocked("172.16.0.0/12", "a private address"),
            blocked("192.0.0.0/24", "a reserved address"),
            blocked("192.0.2.0/24", "a documentation address"),
            blocked("192.168.0.0/16", "a private address"),
            blocked("198.18.0.0/15", "a benchmarking address"),
            blocked("198.51.100.0/24", "a documentation address"),
            blocked("203.0.113.0/24", "a documentation address"),
            blocked("224.0.0.0/4", "a multicast address"),
            blocked("240.0.0.0/4", "a reserved address"),
            blocked("::/128", "an unspecified address"),
            blocked("::1/128", "a loopback address"),
            blocked("::/96", "an IPv4-compatible address"),
            blocked("64:ff9b:1::/48", "a local-use NAT64 address (it reaches the deployment's own IPv4 networks)"),
            blocked("100::/64", "a discard address"),
            blocked("2001::/32", "a Teredo tunnel address"),
            blocked("2001:db8::/32", "a documentation address"),
            blocked("fc00::/7", "a private (unique local) address, e.g. fd00:ec2::254 metadata"),
            blocked("fe80::/10", "a link-local address"),
            blocked("fec0::/10", "a site-local address"),
            blocked("ff00::/8", "a multicast address"));

    private static final Cidr NAT64 = Cidr.parse("64:ff9b::/96");
    private static final Cidr IPV4_TRANSLATED = Cidr.parse("::ffff:0:0:0/96");
    private static final Cidr SIX_TO_FOUR = Cidr.parse("2002::/16");

    private final List<Cidr> allowed;
    private final Resolver resolver;
    private final String setting;

    /** @param setting the setting that allows a network, named in refusals */
    public AddressGuard(List<Cidr> allowed, Resolver resolver, String setting) {
        this.allowed = List.copyOf(allowed);
        this.resolver = resolver;
        this.setting = setting;
    }

    public static AddressGuard withSystemDns(List<Cidr> allowed, String setting) {
        return new AddressGuard(allowed, InetAddress::getAllByName, setting);
    }

    /** This guard, also allowing {@code more}, its refusals naming {@code otherSetting}. */
    public AddressGuard allowing(List<Cidr> more, String otherSetting) {
        List<Cidr> all = new java.util.ArrayList<>(allowed);
        all.addAll(more);
        return new AddressGuard(all, resolver, otherSetting);
    }

    /** Checks a URL as a person gave it: syntax, scheme, and where its host resolves now. */
    public URI checkUrl(String url) throws OutboundRefusal {
        URI uri = parse(url);
        addressFor(uri.getHost());
        return uri;
    }

    /** The syntax alone: an absolute http(s) URL with a host, without credentials or fragment. */
    public static URI parse(String url) throws OutboundRefusal {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new OutboundRefusal("format", "not a valid URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new OutboundRefusal("scheme", "the URL must start with http:// or https://");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw new OutboundRefusal("format", "the URL needs a host name");
        }
        if (uri.getRawUserInfo() != null) {
            throw new OutboundRefusal("credentials", "the URL must not carry a user name or password");
        }
        if (uri.getRawFragment() != null) {
            throw new OutboundRefusal("format", "the URL must not have a #fragment");
        }
        return uri;
    }

    /**
     * Resolves {@code host} and returns the address to connect to, carrying the host name (for TLS SNI and
     * certificate checks). Refuses when any of its addresses is not allowed: a name that points both outside
     * and inside could otherwise be used to reach the inside.
     */
    public InetAddress addressFor(String host) throws OutboundRefusal {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(bare);
        } catch (UnknownHostException e) {
            throw new OutboundRefusal("unresolvable", "the host " + bare + " does not resolve");
        }
        if (addresses == null || addresses.length == 0) {
            throw new OutboundRefusal("unresolvable", "the host " + bare + " does not resolve");
        }
        for (InetAddress address : addresses) {
            String reason = refusalReason(address);
            if (reason != null) {
                throw new OutboundRefusal("blocked_address", "the host " + bare + " resolves to "
                        + address.getHostAddress() + ", " + reason
                        + "; allow its network with " + setting + " to send there");
            }
        }
        try {
            return InetAddress.getByAddress(bare, addresses[0].getAddress());
        } catch (UnknownHostException e) {
            throw new IllegalStateException("an address from the resolver has a valid length", e);
        }
    }

    /** Why the platform will not connect to {@code address}, or null when it may. */
    String refusalReason(InetAddress address) {
        for (Cidr network : allowed) {
            if (network.contains(address)) {
                return null;
            }
        }
        byte[] bytes = address.getAddress();
        byte[] inner = bytes.length == 16 ? embeddedIpv4(bytes) : null;
        if (inner != null) {
            // The IPv4 address inside is what the packets finally reach.
            try {
                return refusalReason(InetAddress.getByAddress(inner));
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        }
        for (Blocked blocked : BLOCKED) {
            if (blocked.network().matches(bytes)) {
                return blocked.reason();
            }
        }
        return null;
    }

    /**
     * The IPv4 address an IPv6 address carries, or null: NAT64 ({@code 64:ff9b::/96}), IPv4-translated
     * ({@code ::ffff:0:0:0/96}, which Java does not turn into IPv4 as it does {@code ::ffff:a.b.c.d}), 6to4
     * ({@code 2002::/16}) and ISATAP interface ids ({@code ::0:5efe:a.b.c.d}, {@code ::200:5efe:a.b.c.d}, under any
     * prefix). Local-use NAT64 ({@code 64:ff9b:1::/48}) is refused whole, whatever it embeds.
     */
    static byte[] embeddedIpv4(byte[] bytes) {
        if (NAT64.matches(bytes) || IPV4_TRANSLATED.matches(bytes)) {
            return Arrays.copyOfRange(bytes, 12, 16);
        }
        if (SIX_TO_FOUR.matches(bytes)) {
            return Arrays.copyOfRange(bytes, 2, 6);
        }
        if ((bytes[8] & 0xFD) == 0 && bytes[9] == 0 && bytes[10] == (byte) 0x5E && bytes[11] == (byte) 0xFE) {
            return Arrays.copyOfRange(bytes, 12, 16);
        }
        return null;
    }

    private static Blocked blocked(String network, String reason) {
        return new Blocked(Cidr.parse(network), reason);
    }
}
