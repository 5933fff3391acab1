/**
 * @module `.terraformignore`, read as HCP Terraform's own CLI reads it (go-slug): `.git/` and
 * `.terraform/` (but not `.terraform/modules/`) are always left out; each line of the file is a
 * pattern in the manner of `.gitignore` (`#` comments, `!` re-includes, a trailing `/` means the
 * directory and all below it, a leading `/` anchors at the module's root, otherwise it matches at
 * any depth; `*` and `?` stay inside one path segment, `**` crosses them). The last matching
 * pattern decides.
 */

interface Rule {
  readonly pattern: RegExp | undefined;
  readonly negated: boolean;
  /** A negated rule follows this one: an excluded directory may still hold included entries. */
  negationsAfter: boolean;
}

/** Whether a path is left out, and whether nothing below it can come back (a later `!`). */
export interface IgnoreMatch {
  readonly excluded: boolean;
  readonly dominating: boolean;
}

/** A go-slug pattern (already prefixed) as an anchored regular expression; undefined when it cannot compile. */
function compile(pattern: string): RegExp | undefined {
  let source = "^";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === "*") {
      if (pattern[i + 1] === "*") {
        i++;
        if (pattern[i + 1] === "/") i++;
        source += i + 1 >= pattern.length ? ".*" : "(.*/)?";
      } else {
        source += "[^/]*";
      }
    } else if (ch === "?") {
      source += "[^/]";
    } else if (ch === "." || ch === "$") {
      source += `\\${ch}`;
    } else if (ch === "\\") {
      // An escaped character stands for itself.
      const next = pattern[++i];
      source += next === undefined ? "\\\\" : /[\^$\\.*+?()[\]{}|/]/.test(next) ? `\\${next}` : next;
    } else {
      // As in go-slug, other characters go into the expression as written (`[abc]` is a class).
      source += ch;
    }
  }
  try {
    return new RegExp(`${source}$`, "u");
  } catch {
    return undefined;
  }
}

function rule(pattern: string, negated: boolean, negationsAfter = false): Rule {
  return { pattern: compile(pattern), negated, negationsAfter };
}

/** go-slug's defaults: `.terraform/`, `!.terraform/modules/`, `.git/`. */
function defaultRules(): Rule[] {
  return [rule("**/.terraform/**", false, true), rule("**/.terraform/modules/**", true), rule("**/.git/**", false)];
}

export class TerraformIgnore {
  readonly #rules: Rule[];

  private constructor(rules: Rule[]) {
    this.#rules = rules;
  }

  /** The rules of a `.terraformignore` file's text (undefined: no file, the defaults only). */
  static parse(text: string | undefined): TerraformIgnore {
    const rules = defaultRules();
    for (const line of (text ?? "").split(/\r?\n/)) {
      let pattern = line.trim();
      if (pattern === "" || pattern.startsWith("#")) continue;
      const negated = pattern.startsWith("!");
      if (negated) {
        pattern = pattern.slice(1);
        if (pattern === "") continue;
        // Every earlier rule up to the previous negation now has a negation after it.
        for (let i = rules.length - 1; i >= 0 && !rules[i]!.negationsAfter; i--) rules[i]!.negationsAfter = true;
      }
      if (pattern.endsWith("/")) pattern += "**";
      pattern = pattern.startsWith("/") ? pattern.slice(1) : `**/${pattern}`;
      rules.push(rule(pattern, negated));
    }
    return new TerraformIgnore(rules);
  }

  /** `path` is relative to the module's root, with `/` separators (a directory is also asked with a trailing `/`). */
  match(path: string): IgnoreMatch {
    const normalized = path.normalize("NFC");
    let excluded = false;
    let dominating = false;
    for (const { pattern, negated, negationsAfter } of this.#rules) {
      if (!pattern?.test(normalized)) continue;
      excluded = !negated;
      dominating = excluded && !negationsAfter;
    }
    return { excluded, dominating };
  }
}
