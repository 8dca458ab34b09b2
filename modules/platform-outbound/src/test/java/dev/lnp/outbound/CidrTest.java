package dev.lnp.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Networks of the allow-list and of the SSRF block list: edges, /0, /32, /128, odd prefixes. */
class CidrTest {

    @ParameterizedTest
    @CsvSource({
            "0.0.0.0/0, 255.255.255.255, true", "0.0.0.0/0, 0.0.0.0, true", "0.0.0.0/0, ::1, false",
            "10.1.2.3/32, 10.1.2.3, true", "10.1.2.3/32, 10.1.2.4, false", "10.1.2.3, 10.1.2.3, true",
            "10.1.2.3, 10.1.2.2, false",
            "172.16.0.0/12, 172.31.255.255, true", "172.16.0.0/12, 172.32.0.0, false", "172.16.0.0/12, 172.15.255.255, false",
            "192.168.1.128/25, 192.168.1.128, true", "192.168.1.128/25, 192.168.1.127, false",
            "10.0.0.0/7, 11.255.255.255, true", "10.0.0.0/7, 12.0.0.0, false",
            "::/0, 2001:db8::1, true", "::/0, 10.0.0.1, false", "fd00::/8, fdff::1, true", "fd00::/8, fe00::1, false",
            "2001:db8::1/128, 2001:db8::1, true", "2001:db8::1/128, 2001:db8::2, false",
            "fe80::/10, febf:ffff::1, true", "fe80::/10, fec0::1, false"})
    void containment(String network, String address, boolean contained) throws Exception {
        assertEquals(contained, Cidr.parse(network).contains(java.net.InetAddress.getByName(address)),
                network + " contains " + address);
    }

    @ParameterizedTest
    @ValueSource(strings = {"example.com/8", "10.0.0.0/33", "::/129", "10.0.0.0/-1", "10.0.0.0/x", "10.0.0", "",
            "10.0.0.0/8/8", "1234", "300.1.1.1"})
    void malformedNetworksAreRefused(String text) {
        assertThrows(IllegalArgumentException.class, () -> Cidr.parse(text));
    }

    @ParameterizedTest
    @CsvSource({"' 10.0.0.0/8 ', 10.0.0.0/8", "fd00::/8, fd00::/8"})
    void theTextIsKeptTrimmed(String text, String shown) {
        assertEquals(shown, Cidr.parse(text).toString());
        assertEquals(shown.contains(":") ? 16 : 4, Cidr.parse(text).network().length);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 7, 8, 9, 31, 32})
    void everyPrefixLengthMatchesItsOwnNetworkAndNotTheNextBitOver(int prefix) throws Exception {
        Cidr network = Cidr.parse("0.0.0.0/" + prefix);
        assertTrue(network.contains(java.net.InetAddress.getByName("0.0.0.0")));
        if (prefix > 0) {
            long flipped = 1L << (32 - prefix);
            byte[] bytes = java.nio.ByteBuffer.allocate(8).putLong(flipped).array();
            byte[] v4 = java.util.Arrays.copyOfRange(bytes, 4, 8);
            assertFalse(network.contains(java.net.InetAddress.getByAddress(v4)), "/" + prefix);
        }
    }
}
