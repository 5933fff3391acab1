/**
 * @module What the kernel offers its callers (the CLI, the library, tests): the options it is
 * created with, its states, and the Kernel interface. The implementation is kernel.ts.
 */
import type { CtsConfig, FileSystem, PluginDefinition, ProcessRunner, RunOptions, SecretMasker, Shutdown, Token } from "../plugin-api/mod.ts";
import type { ConfigIssue } from "../config/config-error.ts";
import type { LogSink } from "../logging/log-sink.ts";
import type { ServeHttpTls } from "../runtime/serve-http.ts";
import type { BuiltinPlugin } from "./builtin-plugins.ts";

export interface KernelOptions {
  readonly config: CtsConfig;
  readonly runOptions: RunOptions;
  readonly logSink: LogSink;
  /** Extra plugins (tests add recording drivers here); configured by a source-less plugin block. */
  readonly plugins?: readonly PluginDefinition[];
  /** Replaces the built-in list (tests boot only a few). */
  readonly builtins?: readonly BuiltinPlugin[];
  /** Provided as shutdownToken. @default a recorder that ends nothing */
  readonly shutdown?: Shutdown;
  /** Serve the router here once started (daemon mode), if some plugin mounted something. */
  readonly httpListen?: { readonly hostname: string; readonly port: number; readonly tls?: ServeHttpTls } | false;
  /** Where relative plugin paths resolve. @default the directory of the first config file, else the CWD */
  readonly baseDir?: string;
  /** How long one plugin's services and init may take. @default 60000 */
  readonly initTimeoutMs?: number;
  /** Replace the real adapters (a plugin testkit may pass recording ones). */
  readonly processRunner?: ProcessRunner;
  readonly fileSystem?: FileSystem;
  /** What environmentToken provides. @default the process environment */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** What secretMaskerToken provides (the CLI shares it with the log sink). @default an empty list */
  readonly secrets?: SecretMasker;
  /**
   * The file of a CTS-style config path (the loader's), as `blockIssues` gets it: the kernel decodes
   * the driver body as its file's format asks when it completes the config, and the check of the
   * config reuses that decoding. @default no file known (the body decodes as HCL)
   */
  readonly fileOf?: (path: string) => string | undefined;
}

export type KernelState = "created" | "initialized" | "running" | "stopping" | "stopped" | "failed";

export interface Kernel {
  readonly state: KernelState;
  init(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  resolve<T>(token: Token<T>): T;
  readonly plugins: readonly { readonly id: string; readonly kind: string; readonly source: string }[];
  readonly httpUrl: string | undefined;
  /**
   * After init: every plugin-owned block of `config` (driver, conditions, module inputs) checked
   * against its registered owner; `fileOf` names the file of a CTS-style path.
   */
  blockIssues(config: CtsConfig, fileOf?: (path: string) => string | undefined): ConfigIssue[];
  /**
   * After init: deprecated fields of plugin-owned blocks that their owners rename, and buffer periods
   * a condition that never buffers ignores (to log at WARN).
   */
  blockWarnings(config: CtsConfig, fileOf?: (path: string) => string | undefined): ConfigIssue[];
}
