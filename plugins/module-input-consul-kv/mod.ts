/** @module Built-in plugin: CTS's `module_input "consul-kv"` (KV data without triggering runs). */
import { definePlugin, moduleInputRegistryToken } from "../../core/plugin-api/mod.ts";
import { consulKvModuleInputFactory } from "./src/consul-kv-module-input.ts";

export { consulKvModuleInputFactory };

export default definePlugin({
  id: "module-input-consul-kv",
  kind: "module-input",
  description: "module_input \"consul-kv\": renders a key or a prefix into var.consul_kv",
  deps: { moduleInputs: moduleInputRegistryToken },
  init({ moduleInputs }) {
    moduleInputs.register(consulKvModuleInputFactory);
  },
});
