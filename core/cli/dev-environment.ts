/**
 * @module The servers `cts-runtime dev` starts around the daemon, as the composition root hands
 * them in (main.ts → dev-servers/dev-environment.ts): core knows their shape, never their code.
 */

export interface DevServer {
  readonly url: string;
  stop(): Promise<void>;
}

export interface DevConsul extends DevServer {
  /** `host:port`, as a config's `consul { address }` takes it. */
  readonly address: string;
}

/** The embedded HCP Terraform-compatible server of `-driver=terraform-cloud`. */
export interface DevTfc extends DevServer {
  /** The API token; it reaches the daemon through TFC_TOKEN, never the config on disk. */
  readonly token: string;
  /** The config's `driver "terraform-cloud"` block naming this server. */
  readonly driverBlock: string;
  /** Lines of the running demo's summary about the task's workspace. */
  instructions(task: string): string[];
}

/** The embedded Vault-compatible server of `-vault`, holding the demo secret. */
export interface DevVault extends DevServer {
  /** It reaches the daemon through VAULT_TOKEN, never the config on disk. */
  readonly rootToken: string;
  /** The config's `vault {}` block and the provider whose task_env reads the demo secret. */
  readonly configBlocks: string;
  /** Lines of the running demo's summary about the secret; `dir` is the demo's folder. */
  instructions(dir: string): string[];
}

export interface DevListen {
  readonly port: number;
  readonly hostname: string;
}

export interface DevEnvironment {
  startConsul(listen: DevListen): Promise<DevConsul>;
  startTfc(listen: DevListen): Promise<DevTfc>;
  startVault(listen: DevListen): Promise<DevVault>;
}
