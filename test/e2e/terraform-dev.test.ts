/**
 * What `npm ci && npm start` does: `node dist/main.js dev` as a process. The demo's output file
 * appears with the demo services and follows a later registration made with plain HTTP (the
 * curl the command prints). Everything it starts listens on loopback only.
 */
import { networkInterfaces } from "node:os";
import { afterAll, expect, test } from "vitest";
import { type DevDemo, startDevDemo } from "../helpers/dev-demo.ts";
import { registerService, waitFor } from "../../harness/driver-terraform/e2e-support.ts";

let dev: DevDemo | undefined;
afterAll(async () => await dev?.stop());

test("cts-runtime dev: the demo file appears and follows a registration; it listens on loopback only", async () => {
  dev = startDevDemo("dev");
  await waitFor(() => dev!.serviceLines().length === 3, () => `demo services never written\n${dev!.output()}`);
  expect(dev.serviceLines()).toEqual(["api 10.0.0.21:8080", "web 10.0.0.11:80", "web 10.0.0.12:80"]);

  const consulUrl = /Embedded Consul:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(dev.output())?.[1];
  expect(consulUrl, dev.output()).toBeDefined();
  expect(dev.output()).toContain(`curl -X PUT --data '{"ID":"web-3","Name":"web","Address":"10.0.0.13","Port":80}' ${consulUrl}/v1/agent/service/register`);

  // Beyond CTS: the status page's URL is printed, and it answers.
  const pageUrl = /Status page:\s+(http:\/\/\S+\/ui\/)/.exec(dev.output())?.[1];
  expect(pageUrl, dev.output()).toBeDefined();
  expect((await fetch(pageUrl!)).status).toBe(200);
  // Beyond CTS: the demo's task API and its Consul are not open to the network.
  const external = Object.values(networkInterfaces()).flat().find((entry) => entry?.family === "IPv4" && !entry.internal)?.address;
  if (external !== undefined) {
    for (const url of [pageUrl!, `${consulUrl!}/v1/status/leader`]) {
      await expect(fetch(url.replace(/\/\/[^/]+:/, `//${external}:`)), url).rejects.toThrow();
    }
  }

  await registerService(consulUrl!, "web-3", "web", "10.0.0.13");
  await waitFor(() => dev!.serviceLines().includes("web 10.0.0.13:80"), () => `web-3 never appeared\n${dev!.output()}`);
  expect(dev.serviceLines()).toEqual(["api 10.0.0.21:8080", "web 10.0.0.11:80", "web 10.0.0.12:80", "web 10.0.0.13:80"]);
  expect(dev.process.exitCode).toBeNull();
}, 120_000);
