/** @module The `api {}` block's settings with their defaults, for configs built without the loader. */
import type { ApiConfig, CtsConfig } from "./config.ts";

/** The settings when no `api {}` block is written: CTS's behaviour, with its 15 s read timeout. */
export const DEFAULT_API_CONFIG: ApiConfig = Object.freeze({
  address: "",
  token: "",
  allowed_origins: Object.freeze([]) as readonly string[],
  request_timeout: 15_000,
  max_event_streams: 100,
});

/** `config.api`, or the defaults when a hand-built config has none. */
export function apiSettings(config: Pick<CtsConfig, "api">): ApiConfig {
  return config.api ?? DEFAULT_API_CONFIG;
}
