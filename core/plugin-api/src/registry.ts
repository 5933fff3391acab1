/** @module Named registries: how several implementations of one concept (drivers, conditions) coexist. */

/** Anything a registry holds is looked up by a user-facing name (`terraform`, `services`, ...). */
export interface Named {
  readonly name: string;
}

/**
 * A name → implementation map that plugins fill during `init`. It freezes when the kernel
 * starts; `register` after that throws `CTS_ERR_REGISTRY_FROZEN`.
 */
export interface Registry<T extends Named> {
  register(entry: T): void;
  get(name: string): T | undefined;
  names(): string[];
}
