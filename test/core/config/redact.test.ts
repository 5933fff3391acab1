import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { loadConfig } from "../../../core/config/load-config.ts";
import { isSecretKey, REDACTED, redactConfig, SECRET_PATHS } from "../../../core/config/redact.ts";

/** Every `writeOnly: true` property path in a schema (definitions are followed by their $ref). */
function writeOnlyPaths(schema: Record<string, unknown>, prefix = ""): string[] {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(properties).flatMap(([key, child]) => {
    const path = prefix === "" ? key : `${prefix}.${key}`;
    return [...(child.writeOnly === true ? [path] : []), ...writeOnlyPaths(child, path)];
  });
}

describe("redactConfig", () => {
  test("SECRET_PATHS are exactly the schema's writeOnly fields", () => {
    const schema = JSON.parse(readFileSync("schemas/config/cts-config.schema.json", "utf8"));
    expect(writeOnlyPaths(schema).sort()).toEqual([...SECRET_PATHS].sort());
  });

  test("hides tokens, passwords and secret-named provider/driver/plugin fields; keeps TLS key paths", async () => {
    const { config } = await loadConfig({
      paths: [{ kind: "file", path: "examples/configs/cts-reference.hcl" }],
      env: { VAULT_TOKEN: "vault-secret" }, cwd: process.cwd(), hostName: "h",
    });
    const withSecrets = {
      ...config,
      consul: { ...config.consul, tls: { ...config.consul.tls, key: "/etc/consul/client.key" } },
      driver: { ...config.driver, options: { backend: { s3: { access_key: "AKIA", secret_key: "s", bucket: "b" } } } },
      terraform_providers: [{
        id: "aws", name: "aws", arguments: { region: "eu", token: "t", assume_role: [{ role_arn: "arn", external_id: "e" }] },
        task_env: { AWS_SECRET_ACCESS_KEY: "k", AWS_REGION: "eu" },
      }],
      plugins: [{ name: "p", source: "x", options: { apiKey: "k", password: "", url: "u" } }],
    };
    const redacted = redactConfig(withSecrets);
    expect(redacted.consul.token).toBe(REDACTED);
    expect(redacted.consul.auth.password).toBe(REDACTED);
    expect(redacted.vault?.token).toBe(REDACTED);
    expect(redacted.consul.tls.key).toBe("/etc/consul/client.key");
    expect(redacted.driver.options).toEqual({ backend: { s3: { access_key: REDACTED, secret_key: REDACTED, bucket: "b" } } });
    expect(redacted.terraform_providers[0]).toEqual({
      id: "aws", name: "aws", arguments: { region: "eu", token: REDACTED, assume_role: [{ role_arn: "arn", external_id: "e" }] },
      task_env: { AWS_SECRET_ACCESS_KEY: REDACTED, AWS_REGION: "eu" },
    });
    expect(redacted.plugins[0]!.options).toEqual({ apiKey: REDACTED, password: "", url: "u" });
    // The original is untouched.
    expect(config.consul.token).toBe("00000000-0000-0000-0000-000000000000");
    expect(JSON.stringify(redacted)).not.toContain("not-a-real-password");
  });

  test("secret key names", () => {
    for (const key of ["token", "password", "secret_key", "access_key", "api_key", "client_secret", "key", "conn_str"]) {
      expect(isSecretKey(key), key).toBe(true);
    }
    for (const key of ["region", "key_file", "ca_path", "keyspace", "monkey_file", "username", "address"]) {
      expect(isSecretKey(key), key).toBe(false);
    }
  });
});
