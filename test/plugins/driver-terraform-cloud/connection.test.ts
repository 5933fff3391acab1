/**
 * Start-up against an HCP Terraform that does not answer, or answers in the wrong protocol: each
 * retry of the daemon's first request is said at WARN (not half a minute of silence), and a TLS
 * mismatch is said plainly (Go's words and what to change) instead of OpenSSL's internal text.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createFileSystem } from "../../../core/runtime/file-system.ts";
import { createHttpClientFactory } from "../../../core/runtime/http-client.ts";
import { terraformRootModule } from "../../../plugins/driver-terraform/mod.ts";
import { createTerraformCloudDriverFactory } from "../../../plugins/driver-terraform-cloud/src/driver-factory.ts";
import { freePort } from "../../../harness/free-port.ts";
import { until } from "../../../harness/until.ts";
import { captureLogger, type LoggedLine } from "../../../harness/driver-terraform/capture-logger.ts";

let plain: Server;
let plainPort: number;
beforeAll(async () => {
  plain = createServer((_, response) => response.end("plain HTTP"));
  await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
  plainPort = (plain.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => plain.close(() => resolve())));

function verifier(hostname: string, lines: LoggedLine[]) {
  const factory = createTerraformCloudDriverFactory({
    http: createHttpClientFactory(), fs: createFileSystem(), logger: captureLogger(lines, "driver.tfc"), env: {}, rootModule: terraformRootModule,
  });
  return (signal: AbortSignal) => factory.verify!({ name: "terraform-cloud", options: { hostname, organization: "org", token: "t0ken" } }, signal);
}

test("a connection refused at start-up is retried visibly, each retry at WARN with the reason", async () => {
  const lines: LoggedLine[] = [];
  const stop = new AbortController();
  const verifying = verifier(`http://127.0.0.1:${await freePort()}`, lines)(stop.signal).catch((e: Error) => e);
  const warned = await until("a WARN line", () => lines.find((line) => line.level === "WARN"));
  expect(warned.message).toBe("request to HCP Terraform failed, retrying");
  expect(warned.fields).toMatchObject({ method: "GET", path: "/api/v2/organizations/org", attempt: 1, retries_left: 7 });
  expect(String(warned.fields?.reason)).toMatch(/^connection refused \[ECONNREFUSED\]/);
  stop.abort();
  expect(String(await verifying)).toContain(`Cannot use organization "org" at http://127.0.0.1:`);
});

test("HTTPS to a plain HTTP server fails at once, in Go's words, without OpenSSL's text", async () => {
  const lines: LoggedLine[] = [];
  const error = await verifier(`https://127.0.0.1:${plainPort}`, lines)(new AbortController().signal).catch((e: Error) => e);
  expect(String(error)).toContain("http: server gave HTTP response to HTTPS client (the server speaks plain HTTP: use an http:// hostname)");
  expect(String(error)).not.toMatch(/SSL routines|error:[0-9A-F]{8}/);
  expect(lines.filter((line) => line.message.includes("retrying"))).toEqual([]);
});
