/**
 * @module The part of consul-template's language that CTS users write in terraform_provider
 * blocks to read Vault: `{{ with secret "<path>" ["k=v" ...] }}...{{ end }}`, whose body prints
 * fields of the secret (`{{ .Data.password }}` for KV v1, `{{ .Data.data.password }}` for KV v2,
 * also `.LeaseID`, `.LeaseDuration`, `.Renewable`, and `.Auth.ClientToken` for a read that made a
 * token) between literal text, with `{{-`/`-}}` trimming.
 * Anything else inside the body is rejected by name rather than rendered wrongly.
 */
import { CtsError, type VaultSecret } from "../../../core/plugin-api/mod.ts";

export interface SecretRequest {
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
}

/** Not global: a shared `lastIndex` would leak between calls (one that threw would skip matches). */
const OPEN = /\{\{(-?)\s*with\s+secret\s+((?:"(?:[^"\\]|\\.)*"\s*)+?)\s*(-?)\}\}/;
const END = /\{\{(-?)\s*end\s*(-?)\}\}/;
const ACTION = /\{\{(-?)\s*([^}]*?)\s*(-?)\}\}/g;
const FIELD = /^\.([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_-]+)*)$/;

export function hasSecret(text: string): boolean {
  return OPEN.test(text);
}

/** Every `with secret` in `text`, in order, with the Vault request it makes. */
export function secretRequests(text: string, where: string): SecretRequest[] {
  return [...text.matchAll(new RegExp(OPEN.source, "g"))].map((match) => request(match[2]!, where));
}

/**
 * `text` with each `with secret` block replaced by its body rendered against the secret that
 * `lookup` returns for its request. Errors name `where` and the template, never a value. Each value
 * printed from the secret's data (not its lease fields or KV v2 metadata) is told to `reveal`.
 */
export function renderSecrets(
  text: string, where: string, lookup: (request: SecretRequest) => VaultSecret, reveal: (value: string) => void = () => {},
): string {
  let out = "";
  let rest = text;
  for (;;) {
    const open = OPEN.exec(rest);
    if (!open) return out + rest;
    const template = open[0];
    const before = rest.slice(0, open.index);
    out += open[1] === "-" ? before.trimEnd() : before;
    let after = rest.slice(open.index + template.length);
    if (open[3] === "-") after = after.trimStart();
    const end = END.exec(after);
    if (!end) throw templateError(where, template, "has no {{ end }}");
    let body = after.slice(0, end.index);
    if (end[1] === "-") body = body.trimEnd();
    rest = after.slice(end.index + end[0].length);
    if (end[2] === "-") rest = rest.trimStart();
    out += renderBody(body, lookup(request(open[2]!, where)), where, template, reveal);
  }
}

function request(args: string, where: string): SecretRequest {
  const strings = [...args.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => JSON.parse(`"${match[1]}"`) as string);
  const [path, ...pairs] = strings;
  const params: Record<string, string> = {};
  for (const pair of pairs) {
    const equals = pair.indexOf("=");
    if (equals <= 0) throw templateError(where, `{{ with secret "${path}" ... }}`, `has a parameter ${JSON.stringify(pair)} that is not key=value`);
    params[pair.slice(0, equals)] = pair.slice(equals + 1);
  }
  return { path: path!, params };
}

function renderBody(body: string, secret: VaultSecret, where: string, template: string, reveal: (value: string) => void): string {
  let out = "";
  let last = 0;
  for (const action of body.matchAll(ACTION)) {
    let literal = body.slice(last, action.index);
    if (action[1] === "-") literal = literal.trimEnd();
    out += literal;
    last = action.index + action[0].length;
    out += fieldValue(action[2]!, secret, where, template, reveal);
    if (action[3] === "-") {
      const trimmed = body.slice(last).trimStart();
      last = body.length - trimmed.length;
    }
  }
  return out + body.slice(last);
}

function fieldValue(expression: string, secret: VaultSecret, where: string, template: string, reveal: (value: string) => void): string {
  const field = FIELD.exec(expression);
  if (!field) throw templateError(where, template, `uses {{ ${expression} }}; only fields of the secret are supported, such as {{ .Data.data.password }}`);
  const roots: Record<string, unknown> = {
    Data: secret.data, LeaseID: secret.leaseId, LeaseDuration: secret.leaseDuration, Renewable: secret.renewable,
    ...(secret.auth ? { Auth: authFields(secret.auth) } : {}),
  };
  if (!(field[1]! in roots)) {
    throw templateError(where, template, `has no field .${field[1]} (use .Data, .LeaseID, .LeaseDuration, .Renewable${secret.auth ? " or .Auth" : ""})`);
  }
  let value: unknown = roots[field[1]!];
  let path = `.${field[1]}`;
  for (const key of field[2]!.split(".").filter(Boolean)) {
    path += `.${key}`;
    if (typeof value !== "object" || value === null || !(key in value)) throw templateError(where, template, `has no field ${path} in the secret`);
    value = (value as Record<string, unknown>)[key];
  }
  if (typeof value === "object" && value !== null) throw templateError(where, template, `prints ${path}, which is an object, not a value`);
  const text = value === null || value === undefined ? "" : String(value);
  if ((path.startsWith(".Data.") && !path.startsWith(".Data.metadata.")) || path === ".Auth.ClientToken") reveal(text);
  return text;
}

/** consul-template's names for a token a read made. */
function authFields(auth: NonNullable<VaultSecret["auth"]>): Record<string, unknown> {
  return {
    ClientToken: auth.clientToken, Accessor: auth.accessor, Policies: auth.policies, Metadata: auth.metadata,
    LeaseDuration: auth.leaseDuration, Renewable: auth.renewable,
  };
}

function templateError(where: string, template: string, problem: string): CtsError {
  return new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot resolve ${where}: template ${template} ${problem}`);
}
