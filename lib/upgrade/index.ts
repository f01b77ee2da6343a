export { upgradePlan } from "./upgrade-plan";
export type {
  ConditionEntry,
  CrdChange,
  DeployPhase,
  InterruptionRuleFact,
  KubernetesRange,
  ListChange,
  ObjectCrdChange,
  SettingChange,
  StatementChange,
  UpgradeHazard,
  UpgradePlan,
  UpgradePlanOptions,
  UpgradeStep,
} from "./upgrade-plan";
export { upgradePlanMarkdown } from "./render";
export { UPGRADE_HAZARDS } from "./hazards";
export type { UpgradeHazardFact } from "./hazards";
