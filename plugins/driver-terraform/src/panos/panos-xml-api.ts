/**
 * @module The three PAN-OS XML API calls a commit needs, as PAN-OS documents them: every request is a
 * form POST to `/api` with its `type` (`keygen`, `commit`, `op`); answers are `<response status=...
 * code=...>` documents. A status of `error`/`failed`, or a code other than 19/20 (success codes), is a
 * failure whose message is PAN-OS's own `msg` text; neither the password nor the key is ever put in one.
 */
import { XMLParser } from "fast-xml-parser";
import { CtsError, type HttpClient } from "../../../../core/plugin-api/mod.ts";
import type { PanosSettings } from "./panos-settings.ts";

export interface PanosJob {
  /** `ACT`, `PEND`, `FIN`. */
  readonly status: string;
  /** `OK`, `FAIL`, `PEND`. */
  readonly result: string;
  readonly progress: number;
  readonly details: string;
}

/** What PAN-OS said; `code` 13 with status success is a custom-role admin's "nothing to commit". */
export class PanosApiError extends CtsError {
  readonly panosCode: number;
  readonly panosStatus: string;
  constructor(what: string, status: string, code: number, message: string) {
    super("CTS_ERR_DRIVER", `Cannot ${what} on PAN-OS: ${message || `response status "${status}" code ${code}`}`);
    this.panosCode = code;
    this.panosStatus = status;
  }
}

const parser = new XMLParser({
  ignoreAttributes: false, attributeNamePrefix: "@", parseTagValue: false, isArray: (name) => name === "line",
});

type Xml = Record<string, unknown>;

export class PanosXmlApi {
  readonly #http: HttpClient;
  readonly #settings: PanosSettings;
  readonly #keyLearnt: (key: string) => void;
  #key: string;

  /** `keyLearnt` hears the key keygen returns (a secret learnt at run time, for the secret masker). */
  constructor(http: HttpClient, settings: PanosSettings, keyLearnt: (key: string) => void = () => {}) {
    this.#http = http;
    this.#settings = settings;
    this.#keyLearnt = keyLearnt;
    this.#key = settings.apiKey;
  }

  /** Generates the API key from username and password unless one is configured. */
  async ensureKey(signal: AbortSignal): Promise<void> {
    if (this.#key !== "") return;
    const answer = await this.#post("generate an API key", { type: "keygen", user: this.#settings.username, password: this.#settings.password }, signal);
    const key = text(obj(answer.result).key);
    if (key === "") throw new CtsError("CTS_ERR_DRIVER", "Cannot generate an API key on PAN-OS: the answer holds no key");
    this.#keyLearnt(key);
    this.#key = key;
  }

  /** Queues the commit `cmd`; the job id, or 0 when PAN-OS had nothing to commit. */
  async commit(cmd: string, signal: AbortSignal): Promise<number> {
    const answer = await this.#post("commit", { type: "commit", action: "partial", cmd, ...this.#target() }, signal);
    return Number(text(obj(answer.result).job) || 0);
  }

  async job(id: number, signal: AbortSignal): Promise<PanosJob> {
    const cmd = `<show><jobs><id>${id}</id></jobs></show>`;
    const job = obj(obj((await this.#post(`read commit job ${id}`, { type: "op", cmd, ...this.#target() }, signal)).result).job);
    return {
      status: text(job.status),
      result: text(job.result),
      progress: Number(text(job.progress) || 0),
      details: lines(obj(job.details).line).join(" | "),
    };
  }

  #target(): Record<string, string> {
    return this.#settings.target ? { target: this.#settings.target } : {};
  }

  async #post(what: string, fields: Record<string, string>, signal: AbortSignal): Promise<Xml> {
    const form = new URLSearchParams({ ...fields, ...(this.#key !== "" && fields.type !== "keygen" ? { key: this.#key } : {}) });
    let status: number;
    let body: string;
    try {
      const response = await this.#http.request({
        method: "POST", url: this.#settings.apiUrl, body: form.toString(), timeoutMs: this.#settings.timeoutMs, signal,
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      status = response.status;
      body = new TextDecoder().decode(response.body);
    } catch (error) {
      if (signal.aborted) throw error;
      const why = error instanceof Error ? error.message : String(error);
      throw new CtsError("CTS_ERR_DRIVER", `Cannot ${what} on PAN-OS at ${this.#settings.apiUrl}: ${why}`);
    }
    let response: Xml;
    try {
      response = obj((parser.parse(body) as Xml).response);
    } catch {
      response = {};
    }
    const panosStatus = text(response["@status"]);
    if (panosStatus === "") {
      throw new CtsError("CTS_ERR_DRIVER", `Cannot ${what} on PAN-OS at ${this.#settings.apiUrl}: HTTP ${status} without an XML API response`);
    }
    const code = Number(text(response["@code"]) || 0);
    if (panosStatus === "error" || panosStatus === "failed" || ![0, 19, 20].includes(code)) {
      throw new PanosApiError(what, panosStatus, code, messageOf(response));
    }
    return response;
  }
}

/** PAN-OS puts its text in `msg`, `msg/line` or `result/msg` (one or several lines). */
function messageOf(response: Xml): string {
  for (const msg of [obj(response.result).msg, response.msg]) {
    const found = typeof msg === "object" && msg !== null ? lines((msg as Xml).line) : lines(msg);
    if (found.length > 0) return found.join(" | ");
  }
  return "";
}

function lines(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.map((line) => text(typeof line === "object" && line !== null ? (line as Xml)["#text"] : line).trim()).filter(Boolean);
}

function obj(value: unknown): Xml {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value as Xml : {};
}

function text(value: unknown): string {
  return typeof value === "string" || typeof value === "number" ? String(value) : "";
}
