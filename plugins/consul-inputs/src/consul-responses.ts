/**
 * @module The parts of Consul's catalog, health and KV response bodies the input builders read.
 *
 * Everything is optional because the bodies come over the wire: builders must tolerate a
 * missing field (older Consul versions, the embedded dev server, Enterprise-only fields).
 */

/** One check of a `/v1/health/service/<name>` entry (service checks and node checks alike). */
export interface HealthCheckBody {
  readonly CheckID?: string;
  readonly Status?: string;
  readonly Output?: string;
  readonly ServiceID?: string;
}

/** One element of a `/v1/health/service/<name>` answer. */
export interface ServiceEntryBody {
  readonly Node?: {
    readonly ID?: string;
    readonly Node?: string;
    readonly Address?: string;
    readonly Datacenter?: string;
    readonly TaggedAddresses?: Readonly<Record<string, string>> | null;
    readonly Meta?: Readonly<Record<string, string>> | null;
  } | null;
  readonly Service?: {
    readonly ID?: string;
    readonly Service?: string;
    readonly Kind?: string;
    readonly Tags?: readonly string[] | null;
    readonly Address?: string;
    readonly Port?: number;
    readonly Meta?: Readonly<Record<string, string>> | null;
    readonly Namespace?: string;
  } | null;
  readonly Checks?: readonly HealthCheckBody[] | null;
}

/** The `/v1/catalog/services` answer: service name → tags of all its instances. */
export type CatalogServicesBody = Readonly<Record<string, readonly string[] | null>>;

/** One element of a `/v1/kv/<key>` answer; `Value` is base64, `null` for an empty value. */
export interface KvEntryBody {
  readonly Key?: string;
  readonly Value?: string | null;
  readonly Flags?: number;
  readonly ModifyIndex?: number;
}
