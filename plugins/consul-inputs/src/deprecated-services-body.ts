/**
 * @module The services selector CTS's deprecated task field `services = [...]` stands for, built from
 * the deprecated top-level `service` blocks it names. The block type is this plugin's, so are its
 * fields: the kernel asks for the body (`fromDeprecatedServices`) and checks it like a written one.
 */

type Json = Readonly<Record<string, unknown>>;

/** A `service` block as CTS read it: queried by id (default: its name). */
interface ServiceBlock {
  readonly name: string;
  readonly datacenter?: string;
  readonly namespace?: string;
  readonly filter?: string;
  readonly cts_user_defined_meta?: Readonly<Record<string, string>>;
}

/**
 * Ids of `service` blocks become their names, and each block's `cts_user_defined_meta` applies to
 * its service. CTS queried each service with its own block's datacenter, namespace and filter; one
 * selector holds one of each, so they are taken when the named blocks agree, and `warn` says so
 * when they do not.
 */
export function fromDeprecatedServices(
  ids: readonly string[],
  serviceBlocks: readonly Json[],
  warn: (message: string) => void,
): Record<string, unknown> {
  const byId = new Map<string, ServiceBlock>(serviceBlocks.map((block) =>
    [String(block.id ?? block.name), { ...block, name: String(block.name) } as ServiceBlock]
  ));
  const entries = ids.map((id): ServiceBlock => byId.get(id) ?? { name: id });
  const metaByService: Record<string, Record<string, string>> = {};
  for (const entry of entries) {
    if (entry.cts_user_defined_meta && Object.keys(entry.cts_user_defined_meta).length > 0) {
      metaByService[entry.name] = { ...entry.cts_user_defined_meta };
    }
  }
  const shared = (field: "datacenter" | "namespace" | "filter"): string => {
    const values = [...new Set(entries.map((entry) => entry[field] ?? ""))];
    if (values.length > 1) {
      warn(`the service blocks it names set different ${field} values; using "${values.find((v) => v !== "")}" for all`);
    }
    return values.find((value) => value !== "") ?? "";
  };
  return {
    names: entries.map((entry) => entry.name),
    datacenter: shared("datacenter"),
    namespace: shared("namespace"),
    filter: shared("filter"),
    ...(Object.keys(metaByService).length > 0 ? { cts_user_defined_meta_by_service: metaByService } : {}),
  };
}
