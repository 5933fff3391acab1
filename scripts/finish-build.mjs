#!/usr/bin/env node
// @ts-check
/** After tsc: make the bin executable (npx runs it directly) and copy the JSON schemas beside the code. */
import { fs, path } from "zx";

const root = path.resolve(import.meta.dirname, "..");
await fs.chmod(path.join(root, "dist", "main.js"), 0o755);
