/**
 * @module The unit tier's guard (a vitest setup file, run before each unit test file): a unit test
 * may not start a process or open a listening socket. Each attempt throws where it happens and fails
 * the test at its end (also when the code under test caught the throw), naming what was started and
 * how to move the file to the integration tier. See test/setup/test-tiers.ts for how a file's tier is
 * chosen.
 */
import { createRequire, syncBuiltinESMExports } from "node:module";
import { afterEach } from "vitest";

const require = createRequire(import.meta.url);
const childProcess = require("node:child_process") as Record<string, unknown>;
const net = require("node:net") as typeof import("node:net");

const attempts: string[] = [];

function refused(what: string): Error {
  const message = `Cannot ${what} in a unit test: the unit tier runs no processes and no servers. ` +
    `Tag the file's header with "@integration" and why (see CONTRIBUTING.md, "Test tiers").`;
  attempts.push(message);
  return new Error(message);
}

for (const name of ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"]) {
  childProcess[name] = (file: unknown) => {
    throw refused(`start a process (child_process.${name} ${typeof file === "string" ? file : ""})`.replace(" )", ")"));
  };
}
net.Server.prototype.listen = function listen(): never {
  throw refused("open a listening socket (net.Server.listen)");
};
// ES module imports of node:child_process and node:net see the replacements too.
syncBuiltinESMExports();

afterEach(() => {
  if (attempts.length === 0) return;
  const found = attempts.splice(0);
  throw new Error(found.join("\n"));
});
