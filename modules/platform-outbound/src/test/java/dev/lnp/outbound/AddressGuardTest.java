package dev.lnp.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.outbound.OutboundRefusal;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AddressGuardTest {

    static InetAddress ip(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A DNS server in a map. */
    static AddressGuard guard(List<Cidr> allowed, Map<String, List<String>> dns) {
        return new AddressGuard(allowed, host -> {
            List<String> answers = dns.get(host);
            if (answers == null) {
                if (host.matches("[0-9a-fA-F:.]+")) {
                    return new InetAddress[] {ip(host)};
                }
                throw new UnknownHostException(host);
            }
            return answers.stream().map(AddressGuardTest::ip).toArray(InetAddress[]::new);
        }, "lnp.outbound.allowed_networks");
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "127.5.5.5", "0.0.0.0", "10.1.2.3", "172.16.0.1", "172.31.255.255",
            "192.168.1.1", "169.254.169.254", "100.64.0.1", "224.0.0.1", "255.255.255.255", "::1", "::",
            "fe80::1", "fd00::1", "fd00:ec2::254", "fc00::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1",
            "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "2002:7f00:1::1", "2002:c0a8:101::1", "::127.0.0.1"})
    void innerAddressesAreRefused(String address) {
        var guard = guard(List.of(), Map.of());
        assertTrue(guard.refusalReason(ip(address)) != null, address + " must be refused");
    }

    /** IPv6 forms that embed a blocked IPv4 address, as literals and through checkUrl. */
    @ParameterizedTest
    @ValueSource(strings = {"::ffff:0:127.0.0.1", "::ffff:0:a9fe:a9fe", "::ffff:0:10.0.0.1", "64:ff9b:1::a9fe:a9fe",
            "64:ff9b:1:7f00:1::", "64:ff9b:1::808:808", "fe80::5efe:127.0.0.1", "2001:db9::5efe:a9fe:a9fe",
            "2606:4700::200:5efe:a9fe:a9fe"})
    void ipv6FormsEmbeddingABlockedIpv4AddressAreRefused(String address) {
        var guard = guard(List.of(), Map.of());
        assertTrue(guard.refusalReason(ip(address)) != null, address + " must be refused");
        Exception refused = assertThrows(OutboundRefusal.class,
                () -> guard.checkUrl("http://[" + address + "]/hook"));
        assertEquals("blocked_address", ((OutboundRefusal) refused).rule());
    }

    @ParameterizedTest
    @ValueSource(strings = {"2001:db9::5efe:808:808", "2606:4700::200:5efe:101:101"})
    void isatapFormsOfPublicAddressesAreAllowed(String address) {
        assertNull(guard(List.of(), Map.of()).refusalReason(ip(address)), address);
    }

    @ParameterizedTest
    @ValueSource(strings = {"93.184.215.14", "8.8.8.8", "1.1.1.1", "172.32.0.1", "2606:4700:4700::1111",
            "64:ff9b::808:808", "2002:808:808::1"})
    void publicAddressesAreAllowed(String address) {
        assertNull(guard(List.of(), Map.of()).refusalReason(ip(address)), address);
    }

    @Test
    void theReasonNamesTheKindOfAddress() {
        var guard = guard(List.of(), Map.of());
        assertTrue(guard.refusalReason(ip("127.0.0.1")).contains("loopback"));
        assertTrue(guard.refusalReason(ip("10.0.0.1")).contains("private"));
        assertTrue(guard.refusalReason(ip("169.254.169.254")).contains("metadata"));
        assertTrue(guard.refusalReason(ip("0.0.0.0")).contains("unspecified"));
        assertTrue(guard.refusalReason(ip("fe80::1")).contains("link-local"));
    }

    @Test
    void aHostNameResolvingToLoopbackIsRefusedAtCreation() {
        var guard = guard(List.of(), Map.of("hooks.example.com", List.of("127.0.0.1")));
        var refused = assertThrows(OutboundRefusal.class, () -> guard.checkUrl("https://hooks.example.com/in"));
        assertEquals("blocked_address", refused.rule());
        assertTrue(refused.getMessage().contains("127.0.0.1"), refused.getMessage());
        assertTrue(refused.getMessage().contains("lnp.outbound.allowed_networks"), refused.getMessage());
    }

    /** A feature with a setting of its own (webhooks) adds its networks, and its refusals name its setting. */
    @Test
    void aFeatureAllowsItsOwnNetworksAndItsRefusalsNameItsSetting() throws Exception {
        var guard = guard(List.of(Cidr.parse("10.20.0.0/16")), Map.of("erp.internal", List.of("10.30.0.1")))
                .allowing(List.of(Cidr.parse("10.30.0.0/16")), "lnp.webhooks.allowed_networks");
        assertEquals("10.30.0.1", guard.addressFor("erp.internal").getHostAddress());
        guard.checkUrl("http://10.20.0.9/x");
        var refused = assertThrows(OutboundRefusal.class, () -> guard.checkUrl("http://10.40.0.1/x"));
        assertTrue(refused.getMessage().contains("lnp.webhooks.allowed_networks"), refused.getMessage());
    }

    @Test
    void localhostIsRefusedWithTheSystemResolver() {
        var guard = AddressGuard.withSystemDns(List.of(), "lnp.outbound.allowed_networks");
        var refused = assertThrows(OutboundRefusal.class, () -> guard.checkUrl("http://localhost:8080/hook"));
        assertEquals("blocked_address", refused.rule());
        assertThrows(OutboundRefusal.class, () -> guard.checkUrl("http://127.0.0.1/hook"));
        assertThrows(OutboundRefusal.class, () -> guard.checkUrl("http://[::1]/hook"));
    }

    @Test
    void aNameWithOneInnerAddressAmongPublicOnesIsRefused() {
        var guard = guard(List.of(), Map.of("mixed.example.com", List.of("93.184.215.14", "10.0.0.5")));
        assertThrows(OutboundRefusal.class, () -> guard.addressFor("mixed.example.com"));
    }

    @Test
    void dnsRebindingIsCaughtAtConnectTimeAndTheCheckedAddressIsTheOneUsed() throws Exception {
        AtomicInteger lookups = new AtomicInteger();
        var guard = new AddressGuard(List.of(), host -> new InetAddress[] {
                lookups.incrementAndGet() == 1 ? ip("93.184.215.14") : ip("127.0.0.1")}, "lnp.outbound.allowed_networks");
        guard.checkUrl("https://rebind.example.com/hook"); // passes: public at creation
        var refused = assertThrows(OutboundRefusal.class, () -> guard.addressFor("rebind.example.com"));
        assertEquals("blocked_address", refused.rule());

        var stable = guard(List.of(), Map.of("ok.example.com", List.of("93.184.215.14")));
        InetAddress address = stable.addressFor("ok.example.com");
        assertEquals("93.184.215.14", address.getHostAddress());
        assertEquals("ok.example.com", address.getHostName(), "the name travels along for TLS");
    }

    @Test
    void anAllowListedNetworkIsReachable() throws Exception {
        var guard = guard(List.of(Cidr.parse("10.20.0.0/16"), Cidr.parse("127.0.0.1")),
                Map.of("erp.internal", List.of("10.20.3.4"), "other.internal", List.of("10.21.0.1")));
        assertEquals("10.20.3.4", guard.addressFor("erp.internal").getHostAddress());
        guard.checkUrl("http://127.0.0.1:8080/x");
        assertThrows(OutboundRefusal.class, () -> guard.addressFor("other.internal"));
        assertThrows(OutboundRefusal.class, () -> guard.checkUrl("http://127.0.0.2/x"));
    }

    @Test
    void urlsMustBeHttpWithAHostAndNoCredentials() {
        var guard = guard(List.of(), Map.of("hooks.example.com", List.of("93.184.215.14")));
        Map.of("ftp://hooks.example.com/x", "scheme",
                "file:///etc/passwd", "scheme",
                "hooks.example.com/x", "scheme",
                "http:///x", "format",
                "http://user:pass@hooks.example.com/x", "credentials",
                "http://hooks.example.com/x#frag", "format",
                "http://nowhere.invalid/x", "unresolvable",
                "http://exa mple.com/", "format").forEach((url, rule) -> {
                    var refused = assertThrows(OutboundRefusal.class, () -> guard.checkUrl(url), url);
                    assertEquals(rule, refused.rule(), url);
                });
    }

    @Test
    void cidrParsingAcceptsOnlyNetworks() {
        assertTrue(Cidr.parse("10.0.0.0/8").contains(ip("10.255.0.1")));
        assertTrue(Cidr.parse(" fd00::/8 ").contains(ip("fd12::1")));
        assertTrue(Cidr.parse("192.168.1.7").contains(ip("192.168.1.7")));
        assertTrue(!Cidr.parse("192.168.1.7").contains(ip("192.168.1.8")));
        assertTrue(Cidr.parse("172.16.0.0/12").contains(ip("172.31.1.1")));
        assertTrue(!Cidr.parse("172.16.0.0/12").contains(ip("172.32.1.1")));
        for (String bad : List.of("example.com", "10.0.0.0/33", "10.0.0.0/x", "::/129", "", "10.0.0.0/-1")) {
            assertThrows(IllegalArgumentException.class, () -> Cidr.parse(bad), bad);
        }
    }
}
