#!/usr/bin/env node
// @ts-check
/**
 * After tsc: make the bin executable (npx runs it directly), point the built-in plugins that
 * import the contract by its package name (`@cts-runtime/plugin-api`, as a third-party package
 * does: plugins/condition-nodes) at the runtime's own built contract, dist/core/plugin-api/mod.js,
 * and stamp the build (dist/.build-stamp), which scripts/build-if-stale.mjs compares with the sources.
 * The published runtime then needs no second copy of the contract installed beside it, and the
 * sources stay exactly what the plugin's own package publishes.
 */
import { fs, glob, path } from "zx";

const root = path.resolve(import.meta.dirname, "..");
const dist = path.join(root, "dist");
await fs.chmod(path.join(dist, "main.js"), 0o755);

const CONTRACT_SPECIFIER = /(["'])@cts-runtime\/plugin-api\1/g;
const contract = path.join(dist, "core", "plugin-api", "mod.js");
for (const file of await glob(["plugins/**/*.js", "plugins/**/*.d.ts"], { cwd: dist, absolute: true })) {
  const text = await fs.readFile(file, "utf8");
  if (!CONTRACT_SPECIFIER.test(text)) continue;
  let relative = path.relative(path.dirname(file), contract).split(path.sep).join("/");
  if (!relative.startsWith(".")) relative = `./${relative}`;
  await fs.writeFile(file, text.replace(CONTRACT_SPECIFIER, (_match, quote) => `${quote}${relative}${quote}`));
}
await fs.writeFile(path.join(dist, ".build-stamp"), `${new Date().toISOString()}\n`);
