import { lookupTable } from "../core/lookup";
import type { ErrorCode } from "../core/error-codes";
import { IConstruct } from "constructs";
import { KarpenterValidationError } from "../core/errors";

/*
 * Karpenter checks its props before building its blocks; a check only a building block can make
 * (e.g. a Sid the version's controller policy already uses) is still about a prop set on Karpenter.
 * Its problems are re-told on the Karpenter construct, under the Karpenter prop that holds the value.
 */

/** Per building block id: the Karpenter prop of each of its fields (by first segment); unlisted fields keep their name. */
const FIELDS: Record<string, Record<string, string>> = lookupTable<Record<string, string>>({
  "node-role": {
    roleName: "nodeRole.roleName",
    existingRole: "nodeRole.existingRole",
    additionalPolicyArns: "nodeRole.additionalPolicyArns",
  },
  "controller-role": {
    roleName: "controllerRole.roleName",
    policyNameSuffix: "controllerRole.policyNameSuffix",
    additionalStatements: "controllerRole.additionalStatements",
    additionalPolicyArns: "controllerRole.additionalPolicyArns",
  },
  "interruption-queue": {
    queueName: "interruptionQueue.queueName",
    ruleNamePrefix: "interruptionQueue.ruleNamePrefix",
    kmsKey: "interruptionQueue.kmsKey",
  },
  crds: {
    webhookServiceName: "values.fullnameOverride",
    webhookEnabled: "values.webhook.enabled",
    webhookPort: "values.webhook.port",
  },
  controller: { nodeSelector: "systemNodeGroup", tolerations: "systemNodeGroup" },
});

/**
 * `error` with each problem raised inside `install` (at a building block's path) re-told on
 * `install` itself, its field renamed to the install's prop; problems elsewhere are kept.
 */
export function onInstallProps(install: IConstruct, error: KarpenterValidationError): KarpenterValidationError {
  const base = `${install.node.path}/`;
  if (!error.problems.some((p) => p.path.startsWith(base))) return error;
  const problems = error.problems.map((p) => {
    if (!p.path.startsWith(base)) return p;
    const child = p.path.slice(base.length).split("/")[0];
    const head = /^[^.[]+/.exec(p.field)?.[0] ?? p.field;
    const renamed = FIELDS[child]?.[head];
    const field =
      renamed === undefined
        ? p.field
        : renamed.includes(".") || renamed === head
          ? renamed + p.field.slice(head.length)
          : renamed;
    return new KarpenterValidationError(p.code as ErrorCode, install, field, p.value, p.allowed);
  });
  return KarpenterValidationError.combine(
    problems,
    problems.length > 1 ? `${problems.length} problems in the props of ${install.node.path}` : undefined,
  );
}
