/**
 * The `{{ with secret }}` subset CTS users write in terraform_provider blocks (consul-template's
 * language): KV v1 and v2 fields, literal text around them, trim markers, parameters, several
 * secrets in one string; and the errors that name the template instead of rendering wrongly.
 */
import { describe, expect, it } from "vitest";
import type { VaultSecret } from "../../../core/plugin-api/mod.ts";
import { hasSecret, renderSecrets, secretRequests } from "../../../plugins/task-engine/src/secret-template.ts";

const secrets: Record<string, VaultSecret> = {
  "secret/db": { data: { data: { user: "admin", password: "p@ss" }, metadata: { version: 3 } }, leaseId: "", leaseDuration: 0, renewable: false },
  "kv/api": { data: { key: "k-1", port: 8443 }, leaseId: "lease/1", leaseDuration: 60, renewable: true },
};
const lookup = (request: { path: string }) => secrets[request.path]!;
const where = 'terraform_provider "demo"';

describe("secret templates", () => {
  it("renders KV v2 and KV v1 fields between literal text", () => {
    expect(renderSecrets('{{ with secret "secret/db" }}{{ .Data.data.user }}:{{ .Data.data.password }}{{ end }}', where, lookup)).toBe("admin:p@ss");
    expect(renderSecrets('https://x:{{ with secret "kv/api" }}{{ .Data.port }}{{ end }}/', where, lookup)).toBe("https://x:8443/");
    expect(renderSecrets('{{ with secret "kv/api" }}{{ .LeaseID }} {{ .LeaseDuration }} {{ .Renewable }}{{ end }}', where, lookup)).toBe("lease/1 60 true");
  });

  it("applies trim markers and renders several secrets in one string", () => {
    const text = 'a {{- with secret "secret/db" -}}\n  {{ .Data.data.user -}} \n{{- end }} b {{ with secret "kv/api" }}{{ .Data.key }}{{ end }}';
    expect(renderSecrets(text, where, lookup)).toBe("aadmin b k-1");
  });

  it("finds the requests with their parameters, and leaves strings without a secret alone", () => {
    expect(secretRequests('{{ with secret "pki/issue/web" "common_name=web.example" "ttl=1h" }}{{ .Data.certificate }}{{ end }}', where))
      .toEqual([{ path: "pki/issue/web", params: { common_name: "web.example", ttl: "1h" } }]);
    expect(hasSecret('{{ key "a/b" }}')).toBe(false);
    expect(renderSecrets("plain", where, lookup)).toBe("plain");
  });

  it("rejects a missing field, an object, an unsupported action and a missing end, naming the template", () => {
    expect(() => renderSecrets('{{ with secret "secret/db" }}{{ .Data.data.nope }}{{ end }}', where, lookup))
      .toThrow('Cannot resolve terraform_provider "demo": template {{ with secret "secret/db" }} has no field .Data.data.nope in the secret');
    expect(() => renderSecrets('{{ with secret "secret/db" }}{{ .Data.data }}{{ end }}', where, lookup)).toThrow("which is an object, not a value");
    expect(() => renderSecrets('{{ with secret "secret/db" }}{{ .Data.data.user | toUpper }}{{ end }}', where, lookup)).toThrow("only fields of the secret are supported");
    expect(() => renderSecrets('{{ with secret "secret/db" }}{{ .Data.data.user }}', where, lookup)).toThrow("has no {{ end }}");
    expect(() => secretRequests('{{ with secret "pki/x" "novalue" }}{{ end }}', where)).toThrow('has a parameter "novalue" that is not key=value');
  });
});
