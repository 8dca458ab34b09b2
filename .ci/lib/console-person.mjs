// The person in the OAuth checks, in a real browser: Debian's Chromium, driven by playwright-core. The person signs
// in to the console with the one-time link `bin/platform workspace create` printed, opens an authorization
// request's consent page, reads it, chooses the workspace and presses Allow. Shared by .ci/mcp-oauth-check and
// .ci/mcp-authorization-conformance, whose run.sh install playwright-core next to this file.
//
// Each step runs in a browser of its own that is closed whatever happens; the cookies the console set (the
// session) are carried from one to the next, as a browser left open would keep them. A screenshot of every
// consent page goes to $CONSOLE_PERSON_SCREENSHOTS (the check's work folder; run.sh keeps it when the check fails).
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const executablePath = process.env.CONSOLE_PERSON_CHROMIUM ?? "/usr/bin/chromium";
// No sandbox: the checks run as root in CI, where Chromium's sandbox refuses to start. The rest keeps a clean
// machine's Chromium from reaching out to the network it does not have.
const args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const patience = 30_000;

export function consolePerson(origin) {
  // Run by hand without run.sh, never into the current folder (it may be the repository).
  const screenshots = process.env.CONSOLE_PERSON_SCREENSHOTS ?? join(tmpdir(), "console-person-screenshots");
  let session;
  let consentPages = 0;

  async function inBrowser(work) {
    const browser = await chromium.launch({ executablePath, args, headless: true, timeout: patience });
    try {
      const context = await browser.newContext({ storageState: session });
      context.setDefaultTimeout(patience);
      const page = await context.newPage();
      const result = await work(page);
      session = await context.storageState();
      return result;
    } finally {
      await browser.close();
    }
  }

  async function heading(page) {
    return (await page.locator("h1").first().textContent({ timeout: 1_000 }).catch(() => null))?.trim();
  }

  async function screenshot(page, name) {
    mkdirSync(screenshots, { recursive: true });
    const file = join(screenshots, name);
    await page.screenshot({ path: file, fullPage: true });
    return file;
  }

  // The one-time link's page has a button that posts the token; the console then sets its session cookie.
  async function signIn(signInLink) {
    await inBrowser(async (page) => {
      const opened = await page.goto(String(signInLink));
      if (opened?.status() !== 200) {
        throw new Error(`the sign-in link answered ${opened?.status()}: ${await heading(page)}`);
      }
      const [answer] = await Promise.all([
        page.waitForNavigation(),
        page.getByRole("button", { name: "Sign in", exact: true }).click(),
      ]);
      if (!answer || answer.status() >= 400) {
        throw new Error(`pressing Sign in answered ${answer?.status()}: ${await heading(page)}`);
      }
      const cookies = await page.context().cookies(origin);
      if (!cookies.some((c) => c.name === "lnp_console")) {
        throw new Error(`no console session after the sign-in link (now at ${page.url()}: ${await heading(page)})`);
      }
    });
  }

  // Opens the consent page of an authorization request, checks it names the client and shows the permissions and
  // tools asked for, allows it in the first workspace offered, and returns where the browser is sent back (the
  // redirect URI with code, state and iss). Nothing needs to listen at the redirect URI: the browser's request
  // there is answered here.
  async function allow(authorizationUrl, clientName) {
    const requested = new URL(String(authorizationUrl));
    const redirectUri = requested.searchParams.get("redirect_uri");
    if (!redirectUri) {
      throw new Error(`the authorization URL has no redirect_uri: ${requested}`);
    }
    const clientOrigin = new URL(redirectUri).origin;
    const number = ++consentPages;
    return inBrowser(async (page) => {
      await page.route((url) => url.origin === clientOrigin, (route) => route.fulfill({
        status: 200, contentType: "text/html; charset=utf-8",
        body: "<!doctype html><html lang=\"en\"><title>Back at the client</title><p>Back at the client.</p></html>",
      }));
      try {
        const opened = await page.goto(requested.href);
        if (opened?.status() !== 200) {
          throw new Error(`the consent page answered ${opened?.status()}: ${await heading(page)}`);
        }
        await readConsentPage(page, requested, clientName);
        const workspaces = page.getByLabel("Workspace it works in");
        const first = await workspaces.locator("option").first().getAttribute("value").catch(() => null);
        if (!first) {
          throw new Error(`no workspace to choose on the consent page: ${await heading(page)}`);
        }
        await workspaces.selectOption(first);
        await screenshot(page, `consent-${number}.png`);
        await page.getByRole("button", { name: "Allow", exact: true }).click();
        await page.waitForURL((url) => url.origin === clientOrigin).catch(async () => {
          throw new Error(`Allow did not send the browser back to ${clientOrigin} (now at ${page.url()}: `
            + `${await heading(page)})`);
        });
        return new URL(page.url());
      } catch (e) {
        const file = await screenshot(page, `consent-${number}-failed.png`).catch(() => "no screenshot");
        e.message += ` [${file}]`;
        throw e;
      }
    });
  }

  async function readConsentPage(page, requested, clientName) {
    const title = await heading(page);
    if (title !== `Connect ${clientName}?`) {
      throw new Error(`the consent page's heading is "${title}", not the client's name "${clientName}"`);
    }
    const permissions = page.getByRole("group", { name: "Permissions it asks for" }).getByRole("checkbox");
    const shown = await permissions.evaluateAll((boxes) => boxes.map((b) => b.value));
    if (shown.length === 0) {
      throw new Error("the consent page shows no permissions");
    }
    const asked = (requested.searchParams.get("scope") ?? "").split(" ").filter(Boolean);
    const missing = asked.filter((scope) => !shown.includes(scope));
    if (missing.length > 0) {
      throw new Error(`the consent page does not show the permissions ${missing.join(", ")} (shows ${shown})`);
    }
    // The tools are in a disclosure: open it, as a person who wants to know would.
    await page.locator("summary", { hasText: "Tools" }).click();
    const tools = await page.getByRole("group", { name: "Tools it may call" }).getByRole("checkbox").count();
    if (tools === 0) {
      throw new Error("the consent page shows no tools");
    }
  }

  return { signIn, allow };
}
