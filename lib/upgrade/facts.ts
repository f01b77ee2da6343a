/*
 * Where upgrade plans get their per-version facts (lib/versions): the only file of lib/upgrade that
 * names the data source.
 */
export { behaviourChangesBetween, compareVersions, knownMinors, newestPatchOf, versionFacts } from "../versions";
export { OBJECT_CRD_KINDS } from "../versions";
export type { ObjectCrdFacts, ObjectCrdKind, PolicyStatementFact, SettingFact, VersionFacts } from "../versions";
