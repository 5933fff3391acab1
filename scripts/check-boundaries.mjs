#!/usr/bin/env node
// @ts-check
/**
 * Repository rules that keep the design visible (CONTRIBUTING.md, "Rules"):
 * - runtime-specific calls (`node:*`, `Deno.*`, `process.*`) only under core/runtime/;
 * - tsyringe and reflect-metadata only under core/kernel/container/;
 * - a plugin is a package of its own: a file under plugins/<id>/ imports only the plugin contract
 *   (core/plugin-api/mod.ts or `@cts-runtime/plugin-api`), files under plugins/<id>/ and npm packages
 *   other than cts-runtime's own; shared code lives in the contract or in one plugin that provides it;
 * - core never imports a plugin, except the built-in plugin table (core/kernel/builtin-plugins.ts);
 * - the dev servers (dev-servers/) import neither plugins nor the CLI, and core never imports them:
 *   they contribute their commands through the contract's command extension point, which the
 *   composition root (main.ts) hands to the CLI; core/runtime/ never imports the CLI either.
 * Prints each violation as `file:line: rule (import)` and exits 1 if there is any.
 * Usage: `node scripts/check-boundaries.mjs [root]` (default: this repository; tests pass a fixture tree).
 */
import { fs, glob, path } from "zx";

const root = process.argv[2] ? path.resolve(process.argv[2]) : path.resolve(import.meta.dirname, "..");
const files = await glob(["main.ts", "core/**/*.ts", "plugins/**/*.ts", "dev-servers/**/*.ts"], {
  cwd: root,
  ignore: ["**/dist/**", "**/node_modules/**"],
});

const CONTRACT = "core/plugin-api/mod.ts";
const IMPORT_SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/g;

/** Where `specifier`, imported by `file`, points: a repository path for relative ones, else the bare name. */
function importTarget(file, specifier) {
  if (!specifier.startsWith(".")) return specifier;
  return path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
}

/** The import of `file` (a plugin file) that leaves its package, or undefined. */
function pluginImportOutside(file, specifier) {
  const own = `${file.split("/").slice(0, 2).join("/")}/`;
  const target = importTarget(file, specifier);
  if (!specifier.startsWith(".")) {
    const ours = target === "cts-runtime" || target.startsWith("cts-runtime/") || target.startsWith("@cts-runtime/");
    return ours && target !== "@cts-runtime/plugin-api" ? target : undefined;
  }
  return target === CONTRACT || target.startsWith(own) ? undefined : target;
}

/** Rules checked against each import specifier of a file: `outside` returns the offending target. */
const importRules = [
  {
    name: "plugin imports outside its folder and the contract",
    applies: (file) => file.startsWith("plugins/"),
    outside: pluginImportOutside,
  },
  {
    name: "core imports a plugin",
    applies: (file) => file.startsWith("core/") && file !== "core/kernel/builtin-plugins.ts",
    outside: (file, specifier) => {
      const target = importTarget(file, specifier);
      return target.startsWith("plugins/") ? target : undefined;
    },
  },
  {
    name: "core imports a dev server",
    applies: (file) => file.startsWith("core/"),
    outside: (file, specifier) => {
      const target = importTarget(file, specifier);
      return target.startsWith("dev-servers/") ? target : undefined;
    },
  },
  {
    name: "dev server imports a plugin or the CLI",
    applies: (file) => file.startsWith("dev-servers/"),
    outside: (file, specifier) => {
      const target = importTarget(file, specifier);
      return target.startsWith("plugins/") || target.startsWith("core/cli/") ? target : undefined;
    },
  },
  {
    name: "runtime imports the CLI",
    applies: (file) => file.startsWith("core/runtime/"),
    outside: (file, specifier) => {
      const target = importTarget(file, specifier);
      return target.startsWith("core/cli/") ? target : undefined;
    },
  },
];

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
    for (const [, specifier] of code.matchAll(IMPORT_SPECIFIER)) {
      for (const rule of importRules) {
        const target = rule.applies(file) ? rule.outside(file, specifier) : undefined;
        if (target !== undefined) violations.push(`${file}:${index + 1}: ${rule.name} (${specifier} → ${target})`);
      }
    }
  });
}

if (violations.length > 0) {
  console.log(violations.join("\n"));
  process.exit(1);
}
console.log(`boundaries: ${files.length} files checked, no violation`);
