export * from "./upgrade-plan";
export * from "./render";
export { UPGRADE_HAZARDS } from "./hazards";
export type { UpgradeHazardFact } from "./hazards";
