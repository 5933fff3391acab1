/**
 * @module Which keys of a CTS config are blocks, and of what kind. HCL parsers turn every block into
 * an array (and labels into nested keys), while CTS's JSON form may write a block as an object or an
 * array; these specs let one shaper bring both forms to one canonical shape before validation.
 */

export type BlockSpec =
  /** `consul {}`: one object; a second block in one file is an error. */
  | { readonly kind: "single"; readonly body?: BodySpec }
  /** `task {}`: repeatable; becomes an array. */
  | { readonly kind: "list"; readonly body?: BodySpec }
  /**
   * `condition "services" {}`: exactly one label; becomes `{ <label>: body }`. With `owned`, the body
   * is a plugin's, shaped by its schema in the kernel; here only each one-element list of objects
   * (HCL's spelling of one block) becomes its object, everywhere in the body, so bodies from several
   * files merge field by field. Lossless: the owner's weak decoding makes a list again where its
   * schema expects one (weak-decode.ts).
   */
  | { readonly kind: "labelled-single"; readonly body?: (label: string) => BodySpec | undefined; readonly owned?: boolean }
  /** `terraform_provider "aws" {}`: repeatable; becomes `[{ <label>: body }, ...]`. */
  | { readonly kind: "labelled-list"; readonly body?: (label: string) => BodySpec | undefined }
  /** `task_env = {}` or `task_env {}`: a map attribute that HCL also lets users write as a block. */
  | { readonly kind: "map" };

export type BodySpec = Readonly<Record<string, BlockSpec>>;

const single = (body?: BodySpec): BlockSpec => ({ kind: "single", body });
const map: BlockSpec = { kind: "map" };

const tlsBody: BodySpec = {};
const transportBody: BodySpec = {};

/** CTS's deprecated top-level `service` block (core keeps it: tasks' deprecated `services` name these). */
const serviceBlockBody: BodySpec = { cts_user_defined_meta: map };

export const taskBody: BodySpec = {
  buffer_period: single(),
  drift_detection: single(),
  // Bodies are kept as written: their owners' schemas shape and decode them (weak-decode.ts).
  condition: { kind: "labelled-single" },
  module_input: { kind: "labelled-list" },
  source_input: { kind: "labelled-list" },
  variables: map,
};

export const rootBody: BodySpec = {
  syslog: single(),
  buffer_period: single(),
  tls: single(tlsBody),
  api: single(),
  consul: single({
    auth: single(),
    tls: single(tlsBody),
    transport: single(transportBody),
    service_registration: single({ default_check: single() }),
  }),
  vault: single({ tls: single(tlsBody), transport: single(transportBody) }),
  // The driver's schema shapes and decodes the body (core/kernel/driver-body.ts).
  driver: { kind: "labelled-single", owned: true },
  terraform_provider: { kind: "labelled-list", body: () => ({ task_env: map }) },
  task: { kind: "list", body: taskBody },
  service: { kind: "list", body: serviceBlockBody },
  plugin: { kind: "labelled-list", body: () => ({ options: map }) },
  high_availability: single({
    cluster: single({ storage: { kind: "labelled-single" } }),
    instance: single(),
  }),
  license: single({ auto_retrieval: single() }),
};

/** Top-level blocks that are appended across files (everything else merges or overwrites). */
export const APPENDED_BLOCKS: readonly string[] = ["task", "terraform_provider", "plugin", "service"];
