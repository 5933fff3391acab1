/**
 * @module CTS cron expressions (hashicorp/cronexpr) for croner. Both read 5 fields (minute first) and
 * 7 fields (seconds first, year last); for 6 fields cronexpr means "5 fields + year" while croner
 * means "seconds + 5 fields", so a 6-field expression gets a leading `0` seconds field.
 */
import { Cron } from "croner";

export function toCronerPattern(cron: string): string {
  const fields = cron.trim().split(/\s+/);
  return fields.length === 6 ? `0 ${fields.join(" ")}` : cron.trim();
}

/** Why `cron` does not parse, or `undefined` when it does. */
export function cronError(cron: string): string | undefined {
  try {
    new Cron(toCronerPattern(cron), { paused: true }).stop();
    return undefined;
  } catch (error) {
    return (error as Error).message.replace(/^CronPattern: /, "");
  }
}
