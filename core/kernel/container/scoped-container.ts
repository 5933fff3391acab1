/**
 * @module The kernel's scoped registry (root → plugin → task): the only file that imports tsyringe.
 *
 * tsyringe is used for what it is good at — child containers that fall back to their parent —
 * and nothing else: no decorators, no auto-wiring, no factories (they are synchronous and have
 * no lifecycle), so instances are created by the kernel and registered here as values.
 */
import "reflect-metadata"; // tsyringe throws at import time without a Reflect polyfill
import { container as globalContainer, type DependencyContainer } from "tsyringe";
import { CtsError, type Token } from "../../plugin-api/mod.ts";

/** Which level of the scope tree a container is; a token may only be provided at its own level. */
export type ScopeLevel = "root" | "plugin" | "task";

const childLevel: Readonly<Record<ScopeLevel, ScopeLevel | undefined>> = {
  root: "plugin",
  plugin: "task",
  task: undefined,
};

export class ScopedContainer {
  readonly #inner: DependencyContainer;
  readonly level: ScopeLevel;

  private constructor(inner: DependencyContainer, level: ScopeLevel) {
    this.#inner = inner;
    this.level = level;
  }

  /** A fresh root. Never the tsyringe global itself, so kernels (and tests) never share state. */
  static createRoot(): ScopedContainer {
    return new ScopedContainer(globalContainer.createChildContainer(), "root");
  }

  /** A plugin scope under a root, or a task scope under a plugin scope. */
  createChild(): ScopedContainer {
    const level = childLevel[this.level];
    if (level === undefined) {
      throw new CtsError("CTS_ERR_PLUGIN_DEPENDENCY", "Cannot create a scope: a task scope has no children");
    }
    return new ScopedContainer(this.#inner.createChildContainer(), level);
  }

  /** Registers `instance` under `token` in this scope; a second registration in the same scope throws. */
  provide<T>(token: Token<T>, instance: T): void {
    if (this.#inner.isRegistered(token.key, false)) {
      throw new CtsError("CTS_ERR_PLUGIN_DEPENDENCY", `Cannot provide "${token.id}": already provided in this scope`);
    }
    this.#inner.registerInstance(token.key, instance);
  }

  /** True when this scope or one of its parents holds `token`. */
  has(token: Token<unknown>): boolean {
    return this.#inner.isRegistered(token.key, true);
  }

  /** The instance for `token`, from this scope or the nearest parent that holds it. */
  resolve<T>(token: Token<T>): T {
    if (!this.#inner.isRegistered(token.key, true)) {
      throw new CtsError("CTS_ERR_PLUGIN_DEPENDENCY", `Cannot resolve "${token.id}": no provider in this scope`);
    }
    return this.#inner.resolve<T>(token.key);
  }
}
