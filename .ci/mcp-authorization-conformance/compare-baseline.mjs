// Compares the suite's saved results (<results>/*/checks.json) with the baseline: every check that is not a
// SUCCESS (a FAILURE, or a WARNING such as a SHOULD not met) must be listed as "<scenario>:<check id>", and every
// listed entry must still fail, so a new failure and a fixed one both show. Prints what differs; exits 1 if anything.
// Usage: node compare-baseline.mjs <results folder> <baseline file>
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const [results, baselineFile] = process.argv.slice(2);
const expected = new Set(readFileSync(baselineFile, "utf8").split("\n")
  .map((line) => line.replace(/#.*/, "").trim()).filter((line) => line.startsWith("- "))
  .map((line) => line.slice(2).trim()));
const seen = new Set();
const unexpected = [];
for (const folder of readdirSync(results)) {
  const scenario = folder.replace(/^authorization-server-/, "").replace(/-\d{4}-\d{2}-\d{2}T.*$/, "");
  for (const check of JSON.parse(readFileSync(join(results, folder, "checks.json"), "utf8"))) {
    const name = `${scenario}:${check.id}`;
    if (check.status === "SUCCESS" || check.status === "INFO") {
      continue;
    }
    seen.add(name);
    if (!expected.has(name)) {
      unexpected.push(`${name} ${check.status}: ${check.errorMessage ?? check.description}`);
    }
  }
}
const stale = [...expected].filter((name) => !seen.has(name));
for (const line of unexpected) {
  console.error(`unexpected: ${line}`);
}
for (const name of stale) {
  console.error(`baseline entry that now passes (remove it): ${name}`);
}
process.exit(unexpected.length || stale.length ? 1 : 0);
