/** @module Typed service tokens: the only way plugins name what they need or provide. */

/** Where an instance lives: once per kernel, once per plugin, or once per task. */
export type TokenScope = "root" | "plugin" | "task";

/** A typed key for a service held by the kernel's container. */
export interface Token<T> {
  /** `<owner>.<name>`, e.g. `core.logger`, `consul.client`. */
  readonly id: string;
  readonly scope: TokenScope;
  /** Container key. `Symbol.for` so that two installed copies of this package agree. */
  readonly key: symbol;
  /**
   * Phantom: carries the service type, never set or read at runtime. A string key (not a
   * `unique symbol`) so that a token typed by one copy of this package infers its service when
   * another copy's API takes it, e.g. a plugin's tokens passed to the installed kernel's `resolve`.
   */
  readonly "~service"?: T;
}

export const TOKEN_ID_PATTERN: RegExp = /^[a-z][a-z0-9-]*\.[a-z][A-Za-z0-9]*$/;

/**
 * Creates a token. Two calls with the same id (even from two copies of this package) give
 * interchangeable tokens, because the container key is `Symbol.for("cts.token:<id>")`.
 *
 * @example
 * const clockToken: Token<Clock> = createToken("acme.clock");
 */
export function createToken<T>(id: string, scope: TokenScope = "root"): Token<T> {
  if (!TOKEN_ID_PATTERN.test(id)) {
    throw new TypeError(`Cannot create token "${id}": id must match ${TOKEN_ID_PATTERN}`);
  }
  return Object.freeze({ id, scope, key: Symbol.for(`cts.token:${id}`) });
}

export type TokenMap = Readonly<Record<string, Token<unknown>>>;

/** The `deps` object a plugin receives: each token replaced by its service. */
export type ResolvedDeps<TDeps extends TokenMap> = {
  readonly [K in keyof TDeps]: TDeps[K] extends Token<infer T> ? T : never;
};
