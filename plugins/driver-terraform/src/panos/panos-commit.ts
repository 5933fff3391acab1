/**
 * @module CTS's post-apply handler for Palo Alto firewalls (`terraform_provider "panos" { auto_commit =
 * true }`): after each successful apply, a partial commit of the candidate configuration limited to the
 * provider's admin (so other admins' pending changes stay uncommitted), waited for to the end. As in
 * CTS: "nothing to commit" is success (job 0, or code 13 for a custom-role admin), and a failure is
 * tried again 4 times with growing waits (about 1, 2, 4, 8 s) before the run fails with PAN-OS's text.
 */
import { CtsError, errorMessage, type Logger, sleep } from "../../../../core/plugin-api/mod.ts";
import { PanosApiError, type PanosXmlApi } from "./panos-xml-api.ts";

/** What CTS names its commits in the firewall's commit history (users search for it there). */
const COMMIT_DESCRIPTION = "Consul-Terraform-Sync Commit";
const RETRIES = 4;
const JOB_POLL_MS = 500;

export interface PanosCommitOptions {
  readonly api: PanosXmlApi;
  readonly username: string;
  readonly logger: Logger;
  /** The wait before retry `attempt` (1-based); tests shorten it. */
  readonly retryWaitMs?: (attempt: number) => number;
}

export class PanosCommit {
  readonly #options: PanosCommitOptions;

  constructor(options: PanosCommitOptions) {
    this.#options = options;
  }

  async run(signal: AbortSignal): Promise<void> {
    const { logger } = this.#options;
    const wait = this.#options.retryWaitMs ?? ctsRetryWait;
    const failures: string[] = [];
    for (let attempt = 0; attempt <= RETRIES; attempt++) {
      if (attempt > 0) {
        logger.warn("retrying the PAN-OS commit", { attempt_number: attempt + 1, error: failures.at(-1) });
        await sleep(wait(attempt), signal);
      }
      try {
        await this.#tryOnce(signal);
        return;
      } catch (error) {
        if (signal.aborted) throw error;
        failures.push(errorMessage(error).replace(/^Cannot commit on PAN-OS: /, ""));
      }
    }
    throw new CtsError("CTS_ERR_DRIVER", `Cannot commit on PAN-OS after ${RETRIES + 1} attempts: ${failures.at(-1)}`);
  }

  async #tryOnce(signal: AbortSignal): Promise<void> {
    const { api, logger } = this.#options;
    await api.ensureKey(signal);
    let job: number;
    try {
      job = await api.commit(commitCommand(this.#options.username), signal);
    } catch (error) {
      if (error instanceof PanosApiError && error.panosStatus === "success" && error.panosCode === 13) {
        logger.debug("PAN-OS commit not needed (custom-role admin, no changes)");
        return;
      }
      throw error;
    }
    if (job === 0) {
      logger.debug("PAN-OS commit not needed (no changes)");
      return;
    }
    for (;;) {
      const state = await api.job(job, signal);
      if (state.progress >= 100 && state.status !== "ACT" && state.status !== "PEND") {
        if (state.result === "FAIL") {
          throw new CtsError("CTS_ERR_DRIVER", `Cannot commit on PAN-OS: commit job ${job} failed${state.details ? `: ${state.details}` : ""}`);
        }
        logger.info("commit successful", { job_id: job, admin: this.#options.username });
        return;
      }
      await sleep(JOB_POLL_MS, signal);
    }
  }
}

/** `<commit>` for a partial commit of one admin's changes (XML-escaped). */
export function commitCommand(username: string): string {
  return `<commit><description>${COMMIT_DESCRIPTION}</description><partial><admin><member>${escapeXml(username)}</member></admin></partial></commit>`;
}

/** CTS's retry waits: 2^(attempt-1) seconds plus up to half of that again. */
function ctsRetryWait(attempt: number): number {
  const base = 1000 * 2 ** (attempt - 1);
  return base + Math.random() * base / 2;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}
