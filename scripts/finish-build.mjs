#!/usr/bin/env node
// @ts-check
/**
 * After tsc: make the bin executable (npx runs it directly) and stamp the build (dist/.build-stamp),
 * which scripts/build-if-stale.mjs compares with the sources.
 */
import { fs, path } from "zx";

const root = path.resolve(import.meta.dirname, "..");
await fs.chmod(path.join(root, "dist", "main.js"), 0o755);
await fs.writeFile(path.join(root, "dist", ".build-stamp"), `${new Date().toISOString()}\n`);
