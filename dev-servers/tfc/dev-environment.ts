/**
 * @module The HCP Terraform half of `cts-runtime dev -driver=terraform-cloud`: the embedded
 * TFC-compatible server beside the embedded Consul, the driver block naming it, and what to print.
 * The token reaches the daemon through TFC_TOKEN, so the demo config on disk holds no secret.
 */
import { startTfcDevServer, type TfcDevServer } from "./src/tfc-dev-server.ts";

/** Workspaces of the demo are named `<prefix><task>`. */
const WORKSPACE_PREFIX = "cts-";

export async function startDevTfc(listen: { port: number; hostname: string }) {
  const tfc = await startTfcDevServer(listen);
  return {
    url: tfc.url,
    token: tfc.token,
    driverBlock: tfcDriverBlock(tfc),
    instructions: (task: string) => tfcInstructions(tfc, task),
    stop: () => tfc.stop(),
  };
}

function tfcDriverBlock(tfc: TfcDevServer): string {
  return `# Runs go to the embedded HCP Terraform-compatible server (cts-runtime tfc-dev); the token
# comes from the TFC_TOKEN environment variable.
driver "terraform-cloud" {
  hostname     = ${JSON.stringify(tfc.url)}
  organization = ${JSON.stringify(tfc.organization)}
  workspaces {
    prefix = ${JSON.stringify(WORKSPACE_PREFIX)}
    tags   = ["demo"]
  }
}`;
}

function tfcInstructions(tfc: TfcDevServer, task: string): string[] {
  const workspace = `${WORKSPACE_PREFIX}${task}`;
  return [
    `    HCP Terraform (dev): ${tfc.url}  (organization ${tfc.organization}, token ${tfc.token})`,
    `    Workspace:           ${tfc.url}/app/${tfc.organization}/workspaces/${workspace}`,
    `    Workspace (API):     curl -H "Authorization: Bearer ${tfc.token}" ${tfc.url}/api/v2/organizations/${tfc.organization}/workspaces/${workspace}`,
  ];
}
