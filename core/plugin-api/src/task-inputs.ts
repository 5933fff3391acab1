/**
 * @module The Consul data a task receives, exactly as CTS hands it to Terraform modules.
 *
 * Field names and types are CTS's "service definition protocol v0" (the `services` variable),
 * plus `catalog_services` and `consul_kv`. Drivers get this as plain data.
 */

/** One service instance, keyed in `TaskInputs.services` by `id.node[.namespace].datacenter`. */
export interface ServiceInstance {
  readonly id: string;
  readonly name: string;
  readonly kind: string;
  /** Service address, falling back to the node address. */
  readonly address: string;
  readonly port: number;
  readonly meta: Readonly<Record<string, string>>;
  /** Sorted. */
  readonly tags: readonly string[];
  readonly namespace: string;
  /** Aggregated check status: passing, warning, critical or maintenance. */
  readonly status: string;
  readonly node: string;
  readonly node_id: string;
  readonly node_address: string;
  readonly node_datacenter: string;
  readonly node_tagged_addresses: Readonly<Record<string, string>>;
  readonly node_meta: Readonly<Record<string, string>>;
  readonly cts_user_defined_meta: Readonly<Record<string, string>>;
}

export interface TaskInputs {
  /** Always present (empty when nothing renders services). Insertion order is CTS's order. */
  readonly services: Readonly<Record<string, ServiceInstance>>;
  /** Service name → sorted tags; present only when a catalog-services condition renders it. */
  readonly catalog_services?: Readonly<Record<string, readonly string[]>>;
  /** Key path → value; present only when a consul-kv condition or module input renders it. */
  readonly consul_kv?: Readonly<Record<string, string>>;
  /** Variables third-party conditions and module inputs publish, under the names they chose. */
  readonly [variable: string]: unknown;
}

/** The variables CTS's own conditions and module inputs render. */
export type BuiltinInputVariable = "services" | "catalog_services" | "consul_kv";

/**
 * A variable a condition or module input renders: a built-in name, or one a third-party plugin
 * publishes (`string & {}` keeps editors completing the built-in names).
 */
export type InputVariable = BuiltinInputVariable | (string & {});

/**
 * How a Terraform driver declares a variable a third-party block publishes, in the root module's
 * variables.tf (CTS's own three are declared as CTS declares them). Without one the variable is
 * declared `type = any`, which passes the value through to the module's own declaration.
 */
export interface InputVariableDeclaration {
  /** A Terraform type expression, `terraform fmt`-clean, e.g. `list(object({ id = string }))`. @default "any" */
  readonly type?: string;
  /** The variable's `description`. */
  readonly description?: string;
  /** One comment line written above the block (CTS writes `# Service definition protocol v0`), without `#`. */
  readonly comment?: string;
}

/**
 * One input of a task as its driver sees it before any data arrives: the variable it fills, the block
 * it comes from and whether its changes run the task. The engine lists every block that renders a
 * variable, so a driver declares exactly those variables instead of guessing from block type names.
 */
export interface TaskInputSpec {
  readonly variable: InputVariable;
  /** The block it comes from: the task's `condition` or one of its `module_input` blocks. */
  readonly block: "condition" | "module_input";
  /** The block's type label, e.g. "services", "catalog-services", "consul-kv". */
  readonly type: string;
  /** True for the condition: a change of this input runs the task. A module input never triggers. */
  readonly triggers: boolean;
  /** How the block's owner declares the variable (its factory's `variableDeclaration`), when it says. */
  readonly declaration?: InputVariableDeclaration;
}

/**
 * One block's template as a Terraform driver writes it to
 * terraform.tfvars.tmpl (its owner's `template`), in block order (condition first). Unlike
 * `TaskInputSpec`, a block that only watches (`use_as_module_input = false`) is listed too: CTS
 * writes its template, which renders to an empty line.
 */
export interface TaskInputTemplate {
  /** The block it comes from. */
  readonly block: "condition" | "module_input";
  /** The block's type label. */
  readonly type: string;
  /** The variable the block renders; absent when it only watches. */
  readonly variable?: InputVariable;
  /** The template text, as its owner gives it. */
  readonly text: string;
}
