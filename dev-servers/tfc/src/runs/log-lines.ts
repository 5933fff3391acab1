/**
 * @module Streams Terraform's output into a run log line by line, leaving out the lines that only
 * make sense on the machine that ran it: `terraform plan -out=…` ends with "Saved the plan to: …"
 * and a hint to run `terraform apply <file>`, behind a rule line, which HCP Terraform's logs lack.
 */
import type { RunLog } from "./run-log.ts";

const RULE = /^─+$/;
const SAVED_PLAN = /^Saved the plan to: /;

export class PlanOutputFilter {
  #partial = "";
  #heldRule: string | undefined;
  #dropping = false;

  readonly #log: RunLog;

  constructor(log: RunLog) {
    this.#log = log;
  }

  write(chunk: string): void {
    const lines = (this.#partial + chunk).split("\n");
    this.#partial = lines.pop()!;
    for (const line of lines) this.#line(line);
  }

  /** Writes what is left (a last line without newline, a held rule). */
  end(): void {
    if (this.#partial !== "") this.#line(this.#partial, false);
    this.#partial = "";
    if (this.#heldRule !== undefined && !this.#dropping) this.#log.append(`${this.#heldRule}\n`);
    this.#heldRule = undefined;
  }

  #line(line: string, newline = true): void {
    if (this.#dropping) return;
    if (SAVED_PLAN.test(line)) {
      this.#dropping = true;
      this.#heldRule = undefined;
      return;
    }
    if (this.#heldRule !== undefined) {
      this.#log.append(`${this.#heldRule}\n`);
      this.#heldRule = undefined;
    }
    if (RULE.test(line)) this.#heldRule = line;
    else this.#log.append(newline ? `${line}\n` : line);
  }
}
