/**
 * The TypeScript-only API, `cdktf-eks-karpenter/cli`: the legacy manifest converter and the upgrade
 * planner that the `cdktf-eks-karpenter` command runs. They work on YAML text and plain data (no
 * construct), so they are not part of the jsii assembly that the Python, Java, .NET and Go packages
 * are generated from (`lib/index.ts`); users of those languages run the command instead
 * (`npx cdktf-eks-karpenter convert …`, `… upgrade-plan …`).
 */
export * from "./convert";
export * from "./upgrade";
