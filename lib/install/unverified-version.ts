import { Annotations } from "cdktf";
import { IConstruct } from "constructs";
import { KarpenterVersion, NEWEST_KNOWN_RELEASE } from "../versions/karpenter-version";
import { pastSupport, supportedLines } from "../versions/support";

// apart from version.ts, which the converter CLI loads without the cdktf peer dependency
const unverifiedWarnings = new WeakMap<object, Set<string>>();

/**
 * Warns once per app and version that `v` is past what this library has verified, naming the
 * version whose facts stand in and what may be wrong.
 */
export function warnUnverifiedVersion(scope: IConstruct, v: KarpenterVersion): void {
  if (!v.unverified) return;
  const seen = unverifiedWarnings.get(scope.node.root) ?? new Set<string>();
  unverifiedWarnings.set(scope.node.root, seen);
  if (seen.has(v.full)) return;
  seen.add(v.full);
  Annotations.of(scope).addWarning(
    `Karpenter ${v.full} is newer than ${NEWEST_KNOWN_RELEASE}, the newest release this library has verified (allowUnverifiedVersion): both Helm releases install ${v.full}, ` +
      `but its IAM policy, interruption event rules, chart settings and CRD rules are assumed to equal ${NEWEST_KNOWN_RELEASE}'s and are unverified. ` +
      `Settings and values the ${NEWEST_KNOWN_RELEASE} chart does not know pass with a warning. Compare with the ${v.full} release notes and getting-started CloudFormation before deploying, or use a newer release of cdktf-eks-karpenter that knows it.`,
  );
}

/**
 * Warns when upstream no longer supports the line of `v` on `now` (the machine's date by default):
 * an LTS line after its published month (1.9 after Feb 2027, 1.14 after Jul 2027), a regular minor once
 * the next minor is released (lib/versions/support.ts). It still installs: support is upstream's, the
 * facts here stay right; the warning names the lines supported on that date.
 */
export function warnPastSupport(scope: IConstruct, v: KarpenterVersion, now: Date = new Date()): void {
  if (v.unverified) return;
  const past = pastSupport(v.factsMinor, now);
  if (past === undefined) return;
  Annotations.of(scope).addWarning(
    `Karpenter ${v.full}: ${past}, so it gets no more fixes, security patches included. Supported on ${now.toISOString().slice(0, 10)}: ${supportedLines(now)} (docs/versions.md, "Picking a version")`,
  );
}
