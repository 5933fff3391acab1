/** @module Built-in plugin: CTS's `module_input "services"` (services data without triggering runs). */
import { definePlugin, moduleInputRegistryToken } from "../../core/plugin-api/mod.ts";
import { servicesModuleInputFactory } from "./src/services-module-input.ts";

export { servicesModuleInputFactory };

export default definePlugin({
  id: "module-input-services",
  kind: "module-input",
  description: "module_input \"services\": renders selected service instances into var.services",
  deps: { moduleInputs: moduleInputRegistryToken },
  init({ moduleInputs }) {
    moduleInputs.register(servicesModuleInputFactory);
  },
});
