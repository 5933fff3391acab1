/**
 * @module The CLI's client of the daemon's HTTP API (CTS's task commands talk to it): address and
 * TLS from CTS's flags and `CTS_*` variables, the API token (beyond CTS) from `-token` or
 * `CTS_TOKEN`, CTS's error bodies turned into readable errors.
 */
import type { FlagSpec, ParsedArgs } from "./command.ts";
import type { CliIo } from "../runtime/cli-io.ts";
import { CtsError } from "../plugin-api/mod.ts";
import { httpRequest, loadClientTls, type ClientTls } from "../runtime/https-client.ts";
import { transportFailureText } from "./transport-failure.ts";

export const DEFAULT_API_ADDRESS = "http://localhost:8558";

/** CTS's general options of every client command. */
export const clientFlags: readonly FlagSpec[] = [
  { name: "http-addr", type: "string", default: DEFAULT_API_ADDRESS, env: "CTS_ADDRESS", placeholder: "<address>",
    help: "The daemon's API address, with scheme (https enables TLS)." },
  { name: "port", type: "int", placeholder: "<port>",
    help: "Deprecated: use -http-addr. Replaces the port of the address." },
  { name: "ssl-verify", type: "bool", default: true, env: "CTS_SSL_VERIFY",
    help: "Verify the daemon's TLS certificate." },
  { name: "ca-cert", type: "string", env: "CTS_CACERT", placeholder: "<path>",
    help: "PEM file of the CA that signed the daemon's certificate (wins over -ca-path)." },
  { name: "ca-path", type: "string", env: "CTS_CAPATH", placeholder: "<dir>",
    help: "Directory of PEM CA files." },
  { name: "client-cert", type: "string", env: "CTS_CLIENT_CERT", placeholder: "<path>",
    help: "PEM client certificate, for a daemon that verifies clients (needs -client-key)." },
  { name: "client-key", type: "string", env: "CTS_CLIENT_KEY", placeholder: "<path>",
    help: "PEM private key of -client-cert." },
  { name: "token", type: "string", env: "CTS_TOKEN", placeholder: "<token>",
    help: "The API token, for a daemon whose api { token } is set (sent as Authorization: Bearer)." },
];

export interface ApiResponse {
  readonly status: number;
  /** Parsed JSON body (undefined when empty). */
  readonly body: unknown;
}

/** A request the daemon answered with an error status; `message` is the daemon's own text. */
export class ApiRequestError extends CtsError {
  readonly status: number;
  readonly requestId: string | undefined;
  /** "404 Not Found": the status line as Go's `resp.Status` spells it. */
  readonly statusLine: string;
  constructor(status: number, message: string, requestId: string | undefined, statusText = "") {
    super("CTS_ERR_BAD_REQUEST", message);
    this.status = status;
    this.requestId = requestId;
    this.statusLine = `${status} ${statusText}`.trimEnd();
  }

  /**
   * The error as CTS's CLI prints it (api/task_lifecycle_client.go): `<status line>: <message>, see
   * logs for more details (Request ID: <id>)`; scripts match "404 Not Found:" in it.
   */
  ctsText(): string {
    if (this.requestId === undefined) return this.message === "" ? this.statusLine : `${this.statusLine}: ${this.message}`;
    return `${this.statusLine}: ${this.message}, see logs for more details (Request ID: ${this.requestId})`;
  }
}

export class CtsApiClient {
  readonly address: string;
  readonly #tls: ClientTls | undefined;
  readonly #token: string;

  constructor(address: string, tls?: ClientTls, token = "") {
    this.address = address.replace(/\/+$/, "");
    this.#tls = tls;
    this.#token = token;
  }

  /** Sends a request to `path` (e.g. `/v1/tasks`); non-2xx answers throw `ApiRequestError`. */
  async request(method: string, path: string, body?: unknown): Promise<ApiResponse> {
    let response;
    try {
      response = await httpRequest({
        url: `${this.address}${path}`,
        method,
        headers: {
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
          ...(this.#token !== "" ? { Authorization: `Bearer ${this.#token}` } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(this.#tls ? { tls: this.#tls } : {}),
      });
    } catch (error) {
      const text = await transportFailureText(this.address, error, { clientCert: this.#tls?.cert !== undefined });
      throw new CtsError("CTS_ERR_BAD_REQUEST", text);
    }
    let parsed: unknown;
    if (response.text.trim() !== "") {
      try {
        parsed = JSON.parse(response.text);
      } catch {
        parsed = response.text;
      }
    }
    if (response.status >= 200 && response.status < 300) return { status: response.status, body: parsed };
    const error = (parsed as { error?: { message?: string }; request_id?: string } | undefined);
    const message = error?.error?.message ?? (typeof parsed === "string" ? parsed.trim() : `HTTP ${response.status}`);
    throw new ApiRequestError(response.status, message, error?.request_id, response.statusText);
  }
}

function withScheme(address: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `http://${address}`;
}

/**
 * Builds the client from the parsed general options: flag > `CTS_*` variable > default, as CTS.
 * Throws `CtsError` for inconsistent TLS options or unreadable certificate files.
 */
export async function clientFromFlags(args: ParsedArgs, io: CliIo): Promise<CtsApiClient> {
  const flags = args.flags;
  const url = new URL(withScheme(String(flags["http-addr"] ?? DEFAULT_API_ADDRESS)));
  if (args.given.has("port")) {
    io.err("==> Warning: -port is deprecated and will be removed; use -http-addr instead.\n");
    url.port = String(flags.port);
  }
  const clientCert = (flags["client-cert"] as string | undefined) ?? "";
  const clientKey = (flags["client-key"] as string | undefined) ?? "";
  if ((clientCert === "") !== (clientKey === "")) {
    throw new CtsError("CTS_ERR_BAD_REQUEST", "Cannot use a client certificate: -client-cert and -client-key must be given together");
  }
  const address = url.toString().replace(/\/+$/, "");
  const token = String(flags["token"] ?? "").trim();
  if (url.protocol !== "https:") return new CtsApiClient(address, undefined, token);
  let tls: ClientTls;
  try {
    tls = await loadClientTls({
      verify: flags["ssl-verify"] !== false,
      ...(flags["ca-cert"] ? { caCert: String(flags["ca-cert"]) } : {}),
      ...(flags["ca-path"] ? { caPath: String(flags["ca-path"]) } : {}),
      ...(clientCert !== "" ? { clientCert, clientKey } : {}),
    });
  } catch (error) {
    throw new CtsError("CTS_ERR_BAD_REQUEST", `Cannot read TLS files: ${(error as Error).message}`);
  }
  return new CtsApiClient(address, tls, token);
}
