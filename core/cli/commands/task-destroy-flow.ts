/**
 * @module `task delete -destroy` (beyond CTS): shows the plan of destroying the task's resources
 * (`DELETE ?destroy=true&run=inspect`), asks as CTS's delete asks, then destroys and deletes
 * (`DELETE ?destroy=true`, which answers once the destroy ended). A failed destroy keeps the task:
 * the daemon's error is printed and the command exits 11.
 */
import type { ParsedArgs } from "../command.ts";
import type { CtsApiClient } from "../api-client.ts";
import { approvedOrCancelled, type Step, type Ui } from "./task-shared.ts";

interface DestroyPlanAnswer {
  readonly request_id?: string;
  readonly inspect?: { readonly plan?: string; readonly changes_present?: boolean; readonly url?: string };
}

export async function destroyAndDelete(args: ParsedArgs, client: CtsApiClient, name: string, ui: Ui, step: Step): Promise<number> {
  const path = `/v1/tasks/${encodeURIComponent(name)}?destroy=true`;
  ui.info(`Inspecting the destroy of the infrastructure of task '${name}'...\n`);
  ui.output("Generating plan that Consul-Terraform-Sync will use Terraform to execute\n");
  step.failing = `unable to generate the destroy plan for '${name}'`;
  const inspected = (await client.request("DELETE", `${path}&run=inspect`)).body as DestroyPlanAnswer;
  ui.output(`Request ID: ${inspected.request_id ?? ""}`);
  ui.output(`Plan: \n${inspected.inspect?.plan ?? ""}`);
  if (inspected.inspect?.url) ui.output(`Terraform Cloud Run URL: ${inspected.inspect.url}\n`);
  const approved = await approvedOrCancelled(args, ui, {
    action: "deleting",
    name,
    ask: () => {
      ui.info(`Do you want to destroy the infrastructure of '${name}' and delete the task?`);
      ui.output(" - This action cannot be undone.\n" +
        " - Destroying a task will destroy the infrastructure managed by the task, as planned above.\n" +
        " - If the task is running, it will be destroyed and deleted once it has completed.\n" +
        " - If the destroy fails, the task is kept and shows the error.");
    },
  });
  if (!approved) return 0;
  ui.info(`Destroying the infrastructure of task '${name}'...\n`);
  step.failing = `unable to destroy '${name}'`;
  const answer = (await client.request("DELETE", path)).body as { request_id?: string } | undefined;
  ui.info(`Task '${name}' has been destroyed and deleted.`);
  if (answer?.request_id) ui.output(`Request ID: '${answer.request_id}'`);
  return 0;
}
