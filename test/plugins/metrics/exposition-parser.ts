/**
 * @module A strict reader of the Prometheus text format 0.0.4 for tests: every line is a
 * `# HELP`, a `# TYPE` or a `name{labels} value` sample, label values unescaped; anything else throws.
 */

export interface ParsedSample {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly value: number;
}

export interface ParsedExposition {
  readonly samples: ParsedSample[];
  readonly types: Map<string, string>;
  readonly helps: Map<string, string>;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

export function parseExposition(text: string): ParsedExposition {
  if (!text.endsWith("\n")) throw new Error("exposition must end with a newline");
  const samples: ParsedSample[] = [];
  const types = new Map<string, string>();
  const helps = new Map<string, string>();
  for (const line of text.slice(0, -1).split("\n")) {
    const comment = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (comment) {
      const [, kind, name, rest] = comment as unknown as [string, string, string, string];
      if (!NAME.test(name)) throw new Error(`bad metric name in: ${line}`);
      if (kind === "TYPE") {
        if (!["gauge", "counter", "histogram", "summary", "untyped"].includes(rest)) throw new Error(`bad type in: ${line}`);
        types.set(name, rest);
      } else helps.set(name, rest);
      continue;
    }
    samples.push(parseSample(line));
  }
  return { samples, types, helps };
}

function parseSample(line: string): ParsedSample {
  const nameMatch = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line);
  if (!nameMatch) throw new Error(`not a sample line: ${JSON.stringify(line)}`);
  const name = nameMatch[0];
  let at = name.length;
  const labels: Record<string, string> = {};
  if (line[at] === "{") {
    at++;
    while (line[at] !== "}") {
      const eq = line.indexOf("=", at);
      if (eq < 0) throw new Error(`label without '=' in: ${JSON.stringify(line)}`);
      const labelName = line.slice(at, eq);
      if (!LABEL_NAME.test(labelName)) throw new Error(`bad label name ${JSON.stringify(labelName)} in: ${JSON.stringify(line)}`);
      if (line[eq + 1] !== '"') throw new Error(`unquoted label value in: ${JSON.stringify(line)}`);
      let value = "";
      at = eq + 2;
      for (;;) {
        const ch = line[at];
        if (ch === undefined) throw new Error(`unterminated label value in: ${JSON.stringify(line)}`);
        if (ch === '"') break;
        if (ch === "\\") {
          const next = line[at + 1];
          if (next === "\\") value += "\\";
          else if (next === '"') value += '"';
          else if (next === "n") value += "\n";
          else throw new Error(`bad escape in: ${JSON.stringify(line)}`);
          at += 2;
        } else {
          value += ch;
          at++;
        }
      }
      if (labelName in labels) throw new Error(`duplicate label in: ${JSON.stringify(line)}`);
      labels[labelName] = value;
      at++; // closing quote
      if (line[at] === ",") at++;
      else if (line[at] !== "}") throw new Error(`expected ',' or '}' in: ${JSON.stringify(line)}`);
    }
    at++;
  }
  const rest = /^ (\S+)$/.exec(line.slice(at));
  if (!rest) throw new Error(`expected ' value' in: ${JSON.stringify(line)}`);
  const raw = rest[1]!;
  const value = raw === "+Inf" ? Infinity : raw === "-Inf" ? -Infinity : raw === "NaN" ? NaN : Number(raw);
  if (raw === "" || (Number.isNaN(value) && raw !== "NaN")) throw new Error(`bad value in: ${JSON.stringify(line)}`);
  return { name, labels, value };
}

/** The one sample of `name` whose labels include `labels`; undefined if none, throws if several. */
export function sampleValue(parsed: ParsedExposition, name: string, labels: Record<string, string> = {}): number | undefined {
  const found = parsed.samples.filter((sample) =>
    sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  if (found.length > 1) throw new Error(`several samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}
