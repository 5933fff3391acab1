/**
 * @module HCP Terraform's `search[wildcard-name]` (`*` matches any run of characters, case-insensitive)
 * in linear time: the pattern's literal parts must appear in order, the first at the start and the
 * last at the end. A regular expression of `.*` parts backtracks exponentially on patterns such as
 * `*a*a*a*a*a*a*a*a*b` against a long name, pinning the server (which then cannot even stop).
 */
export function wildcardMatcher(pattern: string): (name: string) => boolean {
  const parts = pattern.toLowerCase().split("*");
  const first = parts[0]!;
  const last = parts.length > 1 ? parts.at(-1)! : undefined;
  const middle = parts.slice(1, -1).filter((part) => part !== "");
  return (name) => {
    const text = name.toLowerCase();
    if (last === undefined) return text === first;
    if (text.length < first.length + last.length || !text.startsWith(first) || !text.endsWith(last)) return false;
    // Leftmost matches leave the most room for what follows, so a greedy scan decides.
    let at = first.length;
    const end = text.length - last.length;
    for (const part of middle) {
      const found = text.indexOf(part, at);
      if (found < 0 || found + part.length > end) return false;
      at = found + part.length;
    }
    return true;
  };
}
