// A header-adding reverse proxy for the MCP conformance suite, which cannot send an Authorization header.
// Listens on 127.0.0.1:$PROXY_PORT (or an ephemeral port; the port is printed on stdout once listening) and forwards every request to the
// platform with "Authorization: Bearer <key>" added. Host, Origin and every other header pass through unchanged,
// so the platform's own Origin check still decides the suite's DNS-rebinding scenario.
// Usage: node auth-proxy.mjs <upstream base, e.g. http://127.0.0.1:8080> <key>
import http from 'node:http';

const [upstreamBase, key] = process.argv.slice(2);
if (!upstreamBase || !key) {
    console.error('usage: node auth-proxy.mjs <upstream base URL> <bearer key>');
    process.exit(2);
}
const upstream = new URL(upstreamBase);

const server = http.createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${key}` };
    const forward = http.request({
        host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers,
    }, (answer) => {
        res.writeHead(answer.statusCode, answer.headers);
        answer.pipe(res);
    });
    forward.on('error', (e) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`proxy: ${e.message}`);
    });
    req.pipe(forward);
});
server.listen(Number(process.env.PROXY_PORT ?? 0), '127.0.0.1', () => console.log(server.address().port));
