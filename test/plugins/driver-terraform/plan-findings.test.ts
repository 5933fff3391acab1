/**
 * The pure parts of a run's findings (beyond CTS): the resources and the module's outputs read
 * from `terraform show -json` of a saved plan, the console expression that reads the outputs and
 * its answer, and the plan text without the saved-plan note.
 */
import { describe, expect, it } from "vitest";
import { outputsExpression, parseOutputs } from "../../../plugins/driver-terraform/src/module-outputs.ts";
import { planFindings } from "../../../plugins/driver-terraform/src/plan-findings.ts";
import { resourceAction as actionOf } from "../../../core/plugin-api/mod.ts";
import { withoutSavedPlanNote } from "../../../plugins/driver-terraform/src/terraform-commands.ts";

describe("plan findings", () => {
  it("names each action as one word and leaves no-ops out", () => {
    expect(actionOf(["create"])).toBe("create");
    expect(actionOf(["delete", "create"])).toBe("replace");
    expect(actionOf(["create", "delete"])).toBe("replace");
    expect(actionOf(["update"])).toBe("update");
    expect(actionOf(["delete"])).toBe("delete");
    expect(actionOf(["read"])).toBe("read");
    expect(actionOf(["no-op"])).toBeUndefined();
  });

  it("reads resources and the task module's output names and hidden ones, and nothing else", () => {
    const json = JSON.stringify({
      variables: { provider: { value: { token: "s3cr3t" } } },
      resource_changes: [
        { address: "module.web.terraform_data.a", change: { actions: ["create"], after: { input: "s3cr3t" } } },
        { address: "module.web.terraform_data.b", change: { actions: ["no-op"] } },
        { address: "module.web.terraform_data.c", change: { actions: ["delete", "create"] } },
      ],
      configuration: {
        root_module: {
          module_calls: {
            web: {
              module: {
                outputs: { id: { expression: {} }, token: { sensitive: true, expression: { constant_value: "s3cr3t" } }, tmp: { ephemeral: true } },
              },
            },
          },
        },
      },
    });
    const findings = planFindings(json, "web");
    expect(findings).toEqual({
      resources: [{ address: "module.web.terraform_data.a", action: "create" }, { address: "module.web.terraform_data.c", action: "replace" }],
      outputs: { names: ["id", "tmp", "token"], hidden: ["tmp", "token"] },
    });
    expect(JSON.stringify(findings)).not.toContain("s3cr3t");
    expect(planFindings("{}", "web")).toEqual({ resources: [], outputs: { names: [], hidden: [] } });
  });

  it("asks the console for the readable outputs only, quoting names as HCL strings", () => {
    expect(outputsExpression("web-task", ["token", "a${b}"])).toBe(
      'jsonencode({ for name, value in module.web-task : name => value if !contains(["token", "a$${b}"], name) })\n',
    );
  });

  it("reads the console's answer, lists hidden outputs as sensitive, and refuses anything else", () => {
    const outputs = { names: ["id", "token"], hidden: ["token"] };
    const answer = `${JSON.stringify(JSON.stringify({ id: ["a", 1], extra: 1 }))}\n`;
    expect(parseOutputs(`warning text\n${answer}`, outputs)).toEqual({ id: { value: ["a", 1] }, token: { sensitive: true } });
    expect(parseOutputs("(known after apply)\n", outputs)).toBeUndefined();
    expect(parseOutputs("\"not json\"\n", outputs)).toBeUndefined();
    expect(parseOutputs("\"[1]\"\n", outputs)).toBeUndefined();
  });

  it("drops the saved-plan note -out adds, and only that", () => {
    const plan = "Plan: 1 to add, 0 to change, 0 to destroy.\n\n─────────────\n\nSaved the plan to: /w/cts-runtime.tfplan\n\nTo perform exactly these actions, run the following command to apply:\n    terraform apply \"/w/cts-runtime.tfplan\"\n";
    expect(withoutSavedPlanNote(plan)).toBe("Plan: 1 to add, 0 to change, 0 to destroy.\n");
    expect(withoutSavedPlanNote("No changes.\n")).toBe("No changes.\n");
  });
});
