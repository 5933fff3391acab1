#!/usr/bin/env node
// @ts-check
/**
 * Repository rules that keep the design visible (DESIGN.md rules 3 and 6):
 * - runtime-specific calls (`node:*`, `Deno.*`, `process.*`) only under core/runtime/;
 * - tsyringe and reflect-metadata only under core/kernel/container/;
 * - plugins never import the kernel.
 * Prints each violation as `file:line: rule` and exits 1 if there is any.
 */
import { fs, glob, path } from "zx";

const root = path.resolve(import.meta.dirname, "..");
const files = await glob(["main.ts", "core/**/*.ts", "plugins/**/*.ts"], {
  cwd: root,
  ignore: ["**/dist/**", "**/node_modules/**"],
});

const rules = [
  {
    name: "runtime-specific call outside core/runtime/",
    applies: (file) => !file.startsWith("core/runtime/"),
    pattern: /from\s+["']node:|\bDeno\.|\bprocess\.(?:env|argv|exit|cwd|on|off|stdout|stderr|stdin|platform|execPath|pid|kill|hrtime|memoryUsage)\b/,
  },
  {
    name: "tsyringe outside core/kernel/container/",
    applies: (file) => !file.startsWith("core/kernel/container/"),
    pattern: /from\s+["'](?:tsyringe|reflect-metadata)["']|import\s+["'](?:tsyringe|reflect-metadata)["']/,
  },
  {
    name: "plugin imports the kernel",
    applies: (file) => file.startsWith("plugins/"),
    pattern: /from\s+["'][./]*core\/kernel\//,
  },
];

const violations = [];
for (const file of files.sort()) {
  const lines = (await fs.readFile(path.join(root, file), "utf8")).split("\n");
  lines.forEach((line, index) => {
    const code = line.replace(/\/\/.*$/, "");
    if (/^\s*(\*|\/\*\*)/.test(line)) return; // doc comments may name what they avoid
    for (const rule of rules) {
      if (rule.applies(file) && rule.pattern.test(code)) violations.push(`${file}:${index + 1}: ${rule.name}`);
    }
  });
}

if (violations.length > 0) {
  console.log(violations.join("\n"));
  process.exit(1);
}
console.log(`boundaries: ${files.length} files checked, no violation`);
