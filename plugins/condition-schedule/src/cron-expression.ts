/**
 * @module Reads CTS cron expressions (hashicorp/cronexpr dialect) into croner patterns.
 *
 * cronexpr takes 5 fields (minute … day-of-week), 6 fields (the same plus a trailing year) or 7
 * fields (second first, year last), and `@hourly`-style nicknames. croner reads a 6-field
 * pattern as seconds-first, so a CTS 6-field expression is widened to 7 fields with second 0 —
 * the same expression then means the same times in both.
 */
import { Cron } from "croner";
import { CtsError, errorMessage } from "../../../core/plugin-api/mod.ts";

/** The croner pattern for a CTS cron expression; throws `CTS_ERR_CONFIG_INVALID` if unreadable. */
export function toCronerPattern(expression: string): string {
  const trimmed = expression.trim();
  if (trimmed.startsWith("@")) return trimmed;
  const fields = trimmed.split(/\s+/);
  if (trimmed === "" || fields.length < 5 || fields.length > 7) {
    throw invalid(expression, `expected 5, 6 or 7 fields, found ${trimmed === "" ? 0 : fields.length}`);
  }
  return fields.length === 6 ? `0 ${fields.join(" ")}` : fields.join(" ");
}

/** Parses `expression` into a paused croner job (for validation and next-run queries). */
export function parseCron(expression: string): Cron {
  const pattern = toCronerPattern(expression);
  try {
    return new Cron(pattern, { paused: true });
  } catch (error) {
    throw invalid(expression, errorMessage(error));
  }
}

/** Why `expression` is not a cron expression this condition can run, or undefined (the `validate` hook). */
export function cronProblem(expression: string): string | undefined {
  try {
    new Cron(toCronerPattern(expression), { paused: true }).stop();
    return undefined;
  } catch (error) {
    return errorMessage(error).replace(/^Cannot parse cron "[^"]*": /, "").replace(/^CronPattern: /, "");
  }
}

function invalid(expression: string, why: string): CtsError {
  return new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot parse cron "${expression}": ${why}`);
}
