/**
 * Golden files for every generated file of every variant. Regenerate after an intended change
 * with `UPDATE_GOLDEN=1 npx vitest run test/plugins/driver-terraform/golden.test.ts`, then review
 * the diff (fmt.test.ts checks the same files with the real `terraform fmt`).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { buildRootModuleModel, renderRootModuleFiles } from "../../../plugins/driver-terraform/src/build-root-module.ts";
import { renderTfvars } from "../../../plugins/driver-terraform/src/render-tfvars.ts";
import { taskInputSpecsOf, taskInputTemplatesOf } from "../../helpers/task-input-specs.ts";
import { goldenCases } from "./golden-cases.ts";

const goldenDir = join(import.meta.dirname, "golden");
const update = process.env.UPDATE_GOLDEN === "1";

describe("generated files match the golden files", () => {
  for (const [name, goldenCase] of Object.entries(goldenCases)) {
    test(name, async () => {
      const { task } = goldenCase.source;
      const model = await buildRootModuleModel({
        ...goldenCase.source, inputs: taskInputSpecsOf(task), templates: taskInputTemplatesOf(task),
      });
      const files = {
        ...renderRootModuleFiles(model),
        "terraform.tfvars": renderTfvars(model.taskName, model.description, goldenCase.inputs, model.templates),
      };
      const dir = join(goldenDir, name);
      if (update) mkdirSync(dir, { recursive: true });
      for (const [file, content] of Object.entries(files)) {
        const path = join(dir, file);
        if (update) {
          if (content === undefined) rmSync(path, { force: true });
          else writeFileSync(path, content);
          continue;
        }
        if (content === undefined) expect(existsSync(path), `${name}/${file} should not be generated`).toBe(false);
        else expect(content, `${name}/${file}`).toBe(readFileSync(path, "utf8"));
      }
    });
  }
});
