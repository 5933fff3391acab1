/**
 * One request budget per driver block: HCP Terraform allows 30 API requests a second per user, so
 * every task's requests share it, in turn (a task with many polls does not starve another's write),
 * and the server's `X-RateLimit-*` answers tune it; many runs followed at once are read together.
 * Against the embedded server, which enforces the same limit with 429s and runs the real terraform.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { startTfcDevServer, type TfcDevServer } from "../../../dev-servers/tfc/mod.ts";
import { createFileSystem } from "../../../core/runtime/file-system.ts";
import { createHttpClientFactory } from "../../../core/runtime/http-client.ts";
import { terraformRootModule } from "../../../plugins/driver-terraform/mod.ts";
import { createTerraformCloudDriverFactory } from "../../../plugins/driver-terraform-cloud/src/driver-factory.ts";
import { RequestBudget } from "../../../plugins/driver-terraform-cloud/src/request-budget.ts";
import { TfcClient } from "../../../plugins/driver-terraform-cloud/src/tfc-client.ts";
import { captureLogger } from "../../../harness/driver-terraform/capture-logger.ts";
import { driverBlock, inputsOf, stateIds, task, workspace, writeModule } from "../../../harness/driver-terraform-cloud/tfc-fixtures.ts";

let server: TfcDevServer;
let slow: TfcDevServer;
const http = createHttpClientFactory().create();
beforeAll(async () => {
  [server, slow] = await Promise.all([startTfcDevServer(), startTfcDevServer({ rateLimitPerSecond: 10 })]);
});
afterAll(async () => {
  http.close();
  await Promise.all([server?.stop(), slow?.stop()]);
});

const clientOf = (tfc: TfcDevServer) => new TfcClient({ hostname: tfc.url, token: tfc.token, http, logger: captureLogger([], "driver.tfc") });

test("tasks share the budget in turn and meet no 429 at the documented limit", async () => {
  const client = clientOf(server);
  const finished: string[] = [];
  const read = (owner: string) => client.forOwner(owner).api("read org", "GET", `/organizations/${server.organization}`)
    .then(() => void finished.push(owner));
  // One busy task queues 50 requests; two others then ask for 5 each.
  const busy = Array.from({ length: 50 }, () => read("busy"));
  const others = ["a", "b"].flatMap((owner) => Array.from({ length: 5 }, () => read(owner)));
  await Promise.all([...busy, ...others]);
  // Without a budget, 60 requests at once meet 30 429s. With it, none, unless a stalled event loop
  // (client and server share one here) delivers two windows' worth of requests in one.
  expect(server.rateLimiter.refused).toBeLessThanOrEqual(3);
  expect(client.budget.throttled).toBe(server.rateLimiter.refused);
  // In turn: the two small tasks are done long before the busy one.
  const lastOther = Math.max(finished.lastIndexOf("a"), finished.lastIndexOf("b"));
  expect(lastOther).toBeLessThan(40);
}, 30_000);

test("a lower X-RateLimit-Limit from the server slows the budget down; a 429 waits for X-RateLimit-Reset", async () => {
  const client = clientOf(slow);
  const answers = await Promise.all(Array.from({ length: 25 }, () => client.api("read org", "GET", `/organizations/${slow.organization}`)));
  expect(answers.every((answer) => answer !== undefined)).toBe(true);
  expect(client.budget.limitPerSecond).toBe(10);
  // Before the first answer the budget assumed 30: what it sent in that burst may have met 429s, each waited out.
  expect(slow.rateLimiter.refused).toBe(client.budget.throttled);
  expect(client.budget.throttled).toBeLessThanOrEqual(9);
}, 30_000);

test("the budget hands out tokens in turn between owners", async () => {
  const budget = new RequestBudget({ limitPerSecond: 30 });
  const order: string[] = [];
  const take = (owner: string) => budget.take(owner).then(() => void order.push(owner));
  await Promise.all([...Array.from({ length: 12 }, () => take("x")), take("y"), take("z")]);
  // The burst (9) goes first come first served; then x, y and z alternate.
  expect(order.slice(0, 9)).toEqual(Array(9).fill("x"));
  expect(order.slice(9, 12).sort()).toEqual(["x", "y", "z"]);
});

test("many runs followed at once are read together: one workspace listing a look instead of one read a run", async () => {
  const module = writeModule();
  try {
    const logger = captureLogger([], "driver.tfc");
    const factory = createTerraformCloudDriverFactory({ http: createHttpClientFactory(), fs: createFileSystem(), logger, env: {}, rootModule: terraformRootModule });
    const block = driverBlock(server, { workspaces: { prefix: "many-" } });
    const names = ["a", "b", "c", "d", "e", "f"];
    const drivers = await Promise.all(names.map((name) => factory.create(task(name, module.dir), { driver: block, providers: [], consul: {} as never, workingDir: "", logger, inputs: [] })));
    await Promise.all(drivers.map((driver) => driver.init(new AbortController().signal)));
    const refusedBefore = server.rateLimiter.refused;
    await Promise.all(drivers.map(async (driver, i) => {
      await driver.render(inputsOf(`m-${i}`), new AbortController().signal);
      expect(await driver.apply(new AbortController().signal)).toMatchObject({ url: expect.any(String), summary: { add: 1 } });
    }));
    for (const [i, name] of names.entries()) expect(await stateIds(server, (await workspace(server, `many-${name}`)).id)).toEqual([`m-${i}`]);
    expect((await factory.boardFor(block)).sweeps).toBeGreaterThan(0);
    const counts = (await factory.clientFor(block)).requestCounts;
    expect(counts.get(`GET /api/v2/organizations/${server.organization}/workspaces`)).toBeGreaterThan(0);
    expect(server.rateLimiter.refused - refusedBefore).toBeLessThanOrEqual(3);
  } finally {
    module.remove();
  }
}, 60_000);
