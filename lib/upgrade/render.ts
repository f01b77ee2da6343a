import {
  CrdChange,
  describeSetting,
  ListChange,
  ObjectCrdChange,
  objectCrdChanges,
  StatementChange,
  UpgradeHazard,
  UpgradePlan,
  UpgradeStep,
} from "./upgrade-plan";

/*
 * An upgrade plan as Markdown for people: summary, Kubernetes, hazards, deploy order, then one
 * section per minor crossed. The JSON form for CI is the plan object itself.
 */

const code = (s: string) => `\`${s}\``;
const codes = (list: readonly string[]) => list.map(code).join(", ");

/**
 * The plan as Markdown: the releases and direction, the Kubernetes ranges, the known hazards,
 * what `cdktf deploy` does in order, and per minor crossed every change (controller policy by Sid,
 * node role policies, interruption rules, chart settings and feature gates, CRD fields and enum
 * values). Categories without changes are left out of a step. For the same release (`direction`
 * `none`) only the title, "Same release: nothing to upgrade." and the known hazards of that
 * release, if any.
 */
export function upgradePlanMarkdown(plan: UpgradePlan): string {
  const out: string[] = [];
  out.push(`# Karpenter ${plan.from} → ${plan.to}`, "");
  // a reader who typed "1.14" must see which patch the plan is about
  if (plan.assumed.length > 0) out.push(`${capital(plan.assumed.join("; "))}.`, "");
  if (plan.direction === "none") {
    // nothing is deployed: no Kubernetes ranges, deploy order or steps, only what is known about the release itself
    out.push("Same release: nothing to upgrade.", "");
    if (plan.hazards.length > 0) out.push(`## Known hazards of ${plan.to}`, "", ...hazardLines(plan.hazards));
    return finish(out);
  }
  out.push(
    `${plan.direction === "upgrade" ? "An upgrade" : "A downgrade"} across ${plan.steps.length} ${plan.steps.length === 1 ? "step" : "steps"}: ${[plan.steps[0].from, ...plan.steps.map((s) => s.to)].join(" → ")}.`,
    "",
  );
  // the steps explain; the deploy is one: say so, because a reader of a long list of steps may think otherwise
  out.push(
    plan.steps.length > 1
      ? `One \`cdktf deploy\` goes from ${plan.from} straight to ${plan.to}; the releases in between are not installed, so only the hazards of ${plan.from}, ${plan.to} and of the changes crossed are listed. The steps per minor below explain the change; they are not separate deploys.`
      : `One \`cdktf deploy\` goes from ${plan.from} to ${plan.to}.`,
    "",
  );

  const k = plan.kubernetes;
  out.push("## Kubernetes", "");
  out.push(`- ${plan.from}: Kubernetes ${k.from.min}–${k.from.max}`);
  out.push(`- ${plan.to}: Kubernetes ${k.to.min}–${k.to.max}`);
  out.push(
    k.both
      ? `- both run on ${k.both.min}–${k.both.max}: the cluster must be on one of those while the change runs`
      : "- no Kubernetes version runs both: see the hazards",
  );
  if (k.cluster !== undefined)
    out.push(
      `- the cluster's ${k.cluster}: ${k.clusterSupported ? "supported by both" : "NOT supported by both: see the hazards"}`,
    );
  out.push("");

  out.push("## Known hazards", "");
  if (plan.hazards.length === 0) out.push("None known.");
  out.push(...hazardLines(plan.hazards), "");

  out.push("## What `cdktf deploy` does, in order", "");
  for (const p of plan.deployOrder) {
    out.push(`${p.order}. **${p.phase}**: ${p.resources}. ${capital(p.why)}.`);
    for (const c of p.changes) out.push(`   - ${c}`);
  }
  out.push("");

  for (const step of plan.steps) out.push(...stepMarkdown(step));
  return finish(out);
}

function finish(lines: string[]): string {
  return `${lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}

function hazardLines(hazards: readonly UpgradeHazard[]): string[] {
  return hazards.flatMap((h) => [
    `- **${h.id}** (${h.kind}, ${h.versions}, ${h.where}): ${h.problem}.`,
    ...(h.library ? [`  This library: ${h.library}.`] : []),
    `  Advice: ${h.advice}.${h.source ? ` Upstream: ${h.source}.` : ""}`,
  ]);
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function stepMarkdown(s: UpgradeStep): string[] {
  const out = [`## ${s.from} → ${s.to}`, ""];
  const kf = s.kubernetes.from;
  const kt = s.kubernetes.to;
  if (kf.min !== kt.min || kf.max !== kt.max) out.push(`Kubernetes: ${kf.min}–${kf.max} → ${kt.min}–${kt.max}`, "");

  const section = (title: string, lines: string[]) => {
    if (lines.length) out.push(`### ${title}`, "", ...lines, "");
  };
  section("Controller policy", [
    ...(s.policyLayout ? [`- ${capital(s.policyLayout)}.`] : []),
    ...s.controllerPolicy.map(statementLine),
    ...listLines(s.controllerPolicies, "managed policy", (g) => code(`KarpenterController${g}Policy-<cluster>`)),
  ]);
  section("Node role managed policies", listLines(s.nodeRolePolicies, "policy", code));
  section(
    "Interruption rules",
    listLines(
      s.interruptionRules,
      "rule",
      (r) => `${code(r.key)} (${r.source.join(", ")}: ${r.detailType.join(", ")})`,
    ),
  );
  section("Chart settings and feature gates", [
    ...s.chart.settings.map((c) => `- ${code(`settings.${c.key}`)} ${describeSetting(c)}`),
    ...s.chart.featureGates.map(
      (c) => `- feature gate ${code(`settings.featureGates.${c.key}`)} ${describeSetting(c)}`,
    ),
    ...s.chart.awsFeatureGates.map(
      (c) => `- AWS feature gate ${code(`settings.awsFeatureGates.${c.key}`)} ${describeSetting(c)}`,
    ),
    ...listLines(s.chart.valuePaths, "chart value", valuePath),
  ]);
  section("NodePool", crdLines(s.crds.nodePool));
  section("EC2NodeClass", crdLines(s.crds.ec2NodeClass));
  for (const o of objectCrdChanges(s)) section(o.kind, objectCrdLines(o));
  if (out.length === 2) out.push("No change in IAM, interruption rules, chart settings or CRDs.", "");
  return out;
}

/**
 * A value path of the chart-values notation as people read it: `tolerations[]` is `tolerations`
 * (a list), `podLabels{}` a map, `serviceMonitor.sampleLimit~` a key without a default (any value).
 */
function valuePath(entry: string): string {
  const m = /^(.*?)(\[\]|\{\}|~)?$/.exec(entry)!;
  const kind = { "[]": " (a list)", "{}": " (a map)", "~": " (any value, no default)" }[m[2] ?? ""] ?? "";
  return `${code(m[1])}${kind}`;
}

function listLines<T>(c: ListChange<T>, what: string, show: (x: T) => string): string[] {
  return [
    ...c.added.map((x) => `- ${what} added: ${show(x)}`),
    ...c.removed.map((x) => `- ${what} removed: ${show(x)}`),
  ];
}

function statementLine(c: StatementChange): string {
  const parts: string[] = [];
  const list = (l: ListChange, what: string) => {
    if (l.added.length) parts.push(`${what} +${codes(l.added)}`);
    if (l.removed.length) parts.push(`${what} −${codes(l.removed)}`);
  };
  list(c.actions, "actions");
  list(c.resources, "resources");
  const cond = (x: { operator: string; key: string; value: string }) => `${x.operator} ${x.key} = ${x.value}`;
  list({ added: c.conditions.added.map(cond), removed: c.conditions.removed.map(cond) }, "conditions");
  if (c.effect) parts.push(`effect ${c.effect.from} → ${c.effect.to}`);
  if (c.movedPolicy) parts.push(`moved from policy ${c.movedPolicy.from} to ${c.movedPolicy.to}`);
  return `- ${code(c.sid)} ${c.change}${c.policy ? ` (${c.policy})` : ""}: ${parts.join("; ")}`;
}

/** A CRD that appears or goes in one line (its fields listed with it), else as {@link crdLines}, with an API version change first. */
function objectCrdLines(c: ObjectCrdChange): string[] {
  if (c.crd === "absent") return [];
  if (c.crd === "added")
    return [
      `- CRD added: ${code(c.apiVersion.to!)} ${c.kind}${c.featureGate ? `, read by Karpenter only with the feature gate ${code(`settings.featureGates.${c.featureGate}`)} on` : ""}; spec fields ${codes(c.fields.added)}`,
    ];
  if (c.crd === "removed")
    return [
      `- CRD removed: the karpenter-crd chart no longer has ${code(c.apiVersion.from!)} ${c.kind}, so deploying deletes the CRD and every ${c.kind} object with it`,
    ];
  return [
    ...(c.apiVersion.from !== c.apiVersion.to
      ? [`- API version ${code(c.apiVersion.from!)} → ${code(c.apiVersion.to!)}`]
      : []),
    ...crdLines(c),
  ];
}

function crdLines(c: CrdChange): string[] {
  return [
    ...c.freeForm.added.map(
      (o) =>
        `- ${code(o)} becomes free-form: the API server accepts any field below it, the controller judges them (its typed fields are still accepted)`,
    ),
    ...c.freeForm.removed.map((o) => `- ${code(o)} is typed again: fields below it outside the schema are refused`),
    ...listLines(c.fields, "field", code),
    ...c.enumValues.flatMap((e) => [
      ...(e.added.length ? [`- ${code(e.path)} values added: ${codes(e.added)}`] : []),
      ...(e.removed.length ? [`- ${code(e.path)} values removed: ${codes(e.removed)}`] : []),
    ]),
  ];
}
