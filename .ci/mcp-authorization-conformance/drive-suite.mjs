// Runs the conformance suite's authorization-server scenarios (`conformance authorization`) against a running
// platform and plays the person the suite asks for: the suite prints an authorization URL and waits for the browser
// to come back to its callback on 127.0.0.1:<port>; here the owner (signed in with the one-time link) allows the
// request on the consent page and the answer's Location is followed to that callback, as a browser would.
// The client is registered first (RFC 7591) with the suite's callback as its redirect URI.
// Usage: node drive-suite.mjs <suite's dist/index.js> <results folder>
// Environment: BASE (the issuer), SIGN_IN_LINK, CALLBACK_PORT. Exits with the suite's status.
import { spawn } from "node:child_process";
import { consolePerson } from "../lib/console-person.mjs";

const [suite, results] = process.argv.slice(2);
const base = process.env.BASE;
const signInLink = process.env.SIGN_IN_LINK;
const callbackPort = process.env.CALLBACK_PORT;
if (!suite || !results || !base || !signInLink || !callbackPort) {
  console.error("usage: BASE=… SIGN_IN_LINK=… CALLBACK_PORT=… node drive-suite.mjs <suite> <results folder>");
  process.exit(2);
}
const clientName = "MCP conformance suite";

const registered = await fetch(`${base}/oauth/register`, {
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ client_name: clientName, redirect_uris: [`http://127.0.0.1:${callbackPort}/callback`],
    token_endpoint_auth_method: "none" }),
});
if (registered.status !== 201) {
  console.error(`registration answered ${registered.status}: ${await registered.text()}`);
  process.exit(1);
}
const clientId = (await registered.json()).client_id;

const person = consolePerson(base);
await person.signIn(signInLink);

const run = spawn(process.execPath, [suite, "authorization", "--url", base, "--client-id", clientId,
  "--resource", `${base}/api/mcp`, "--port", callbackPort, "-o", results], { stdio: ["ignore", "pipe", "inherit"] });

let pending = "";
let askedForBrowser = false;
let personFailed = null;
run.stdout.on("data", (chunk) => {
  process.stdout.write(chunk);
  pending += chunk.toString();
  let newline;
  while ((newline = pending.indexOf("\n")) >= 0) {
    const line = pending.slice(0, newline).trim();
    pending = pending.slice(newline + 1);
    if (line.startsWith("Access the following URL")) {
      askedForBrowser = true;
    } else if (askedForBrowser && line.startsWith(`${base}/`)) {
      askedForBrowser = false;
      person.allow(line, clientName)
        .then((back) => fetch(back))
        .catch((e) => { personFailed = e; console.error(`the person could not allow the request: ${e.stack ?? e}`); });
    }
  }
});
const status = await new Promise((resolve) => run.on("exit", (code) => resolve(code ?? 1)));
process.exit(personFailed ? 1 : status);
