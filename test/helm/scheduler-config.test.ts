import { schedulerConfigProblems } from "../../lib/helm/scheduler-config";

/*
 * Each document with whether sigs.k8s.io/karpenter v1.15.0's ParseSchedulerConfiguration accepts it: the function
 * (pkg/operator/options/options.go:333-420) run offline with sigs.k8s.io/yaml v1.6.0 and a copy of
 * corev1.TopologySpreadConstraint's JSON fields, 50 documents.
 */
const UPSTREAM: [string, boolean][] = [
  [
    "podTopologySpread:\n  defaultConstraints:\n  - maxSkew: 1\n    topologyKey: topology.kubernetes.io/zone\n    whenUnsatisfiable: ScheduleAnyway\n",
    true,
  ],
  ["podTopologySpreed: {}", false],
  ["PodTopologySpread: {}", true],
  ["podtopologyspread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}", true],
  ["podTopologySpread: {defaultConstraints: [{MaxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}", true],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule, extra: 1}]}",
    false,
  ],
  [
    'podTopologySpread: {defaultConstraints: [{maxSkew: "1", topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}',
    false,
  ],
  ["podTopologySpread: {defaultConstraints: [{maxSkew: 1.0, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}", true],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1.5, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 3000000000, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 0x10, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}",
    true,
  ],
  ["podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: 5, whenUnsatisfiable: DoNotSchedule}]}", true],
  ["podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: yes}]}", false],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}, {maxSkew: 2, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}, {maxSkew: 2, topologyKey: a, whenUnsatisfiable: ScheduleAnyway}]}",
    true,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule, labelSelector: {}}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule, labelSelector: null}]}",
    true,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule, matchLabelKeys: []}]}",
    true,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule, matchLabelKeys: [x]}]}",
    false,
  ],
  ['podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: "", whenUnsatisfiable: DoNotSchedule}]}', false],
  [
    'podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: "Bad Key", whenUnsatisfiable: DoNotSchedule}]}',
    false,
  ],
  ["podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: doNotSchedule}]}", false],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule, minDomains: 0, nodeAffinityPolicy: Bogus}]}",
    true,
  ],
  ["podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a}]}", false],
  ["podTopologySpread: {defaultConstraints: [{topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}", false],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule, maxSkew: 2}]}",
    false,
  ],
  ["podTopologySpread: {}\npodTopologySpread: {}", false],
  ["podTopologySpread: null", true],
  ["podTopologySpread:\n  defaultConstraints: null", true],
  ["{}", true],
  ["null", true],
  [" ", true],
  ["~", true],
  ["[]", false],
  ["abc", false],
  ["- a", false],
  ['{"podTopologySpread": {"defaultConstraints": []}}', true],
  ["podTopologySpread: {defaultConstraints: {}}", false],
  ["podTopologySpread: []", false],
  ["podTopologySpread: {defaultConstraints: [null]}", false],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}\n---\nfoo: 1",
    true,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}\n...\n",
    true,
  ],
  ["a: [", false],
  ["podTopologySpread: &x {defaultConstraints: []}", true],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: !!str 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabelz: {}}}]}",
    false,
  ],
  ["podTopologySpread: {defaultConstraints: [{maxSkew: +1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}", true],
  ["podTopologySpread: {defaultConstraints: [{maxSkew: 1e0, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}", true],
  ["podTopologySpread: {defaultConstraints: [{maxSkew: 0b1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}", true],
  ["podTopologySpread: {defaultConstraints: [{maxSkew: 1_0, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}", true],
  ["podTopologySpread: {defaultConstraints: [{maxSkew: 010, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}", true],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule, nodeTaintsPolicy: null}]}",
    true,
  ],
  [
    'podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule, minDomains: "2"}]}',
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: null, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}",
    false,
  ],
  ["\tpodTopologySpread: {}", false],
];

describe("SCHEDULER_CONFIG as the 1.15 controller parses it", () => {
  test.each(UPSTREAM.map(([doc, ok]) => [JSON.stringify(doc), ok, doc] as const))(
    "%s: accepted upstream = %s",
    (_shown, ok, doc) => {
      const problems = schedulerConfigProblems(doc);
      if (ok) expect(problems).toEqual([]);
      else expect(problems.length).toBeGreaterThan(0);
    },
  );
  test("every problem of a document is named, not only the first as upstream", () => {
    const doc =
      "podTopologySpread:\n  defaultConstraints:\n  - {maxSkew: 0, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {}}\n  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, matchLabelKeys: [app]}\n";
    expect(schedulerConfigProblems(doc)).toEqual([
      "podTopologySpread.defaultConstraints[0].maxSkew must be greater than 0 (it is 0)",
      "podTopologySpread.defaultConstraints[0].labelSelector must not be set: the selector is deduced for each pod",
      "podTopologySpread.defaultConstraints[1].matchLabelKeys must not be set: it has no effect on default constraints",
      'podTopologySpread.defaultConstraints[1] is a duplicate of [0] (topologyKey "zone", whenUnsatisfiable "DoNotSchedule")',
    ]);
  });
});

describe("what go-yaml v2 and encoding/json decide beyond the table (fresh tester 10 ran the upstream function)", () => {
  const doc = (c: string) =>
    `podTopologySpread:\n  defaultConstraints:\n  - ${c}\n    topologyKey: topology.kubernetes.io/zone\n    whenUnsatisfiable: ScheduleAnyway\n`;
  test("of two spellings of one field the one sorting last wins, wherever it is written", () => {
    expect(schedulerConfigProblems(doc("maxSkew: 0\n    MaxSkew: 1"))).toEqual([
      "podTopologySpread.defaultConstraints[0].maxSkew must be greater than 0 (it is 0)",
    ]);
    expect(schedulerConfigProblems(doc("MaxSkew: 1\n    maxSkew: 0"))).toHaveLength(1);
    expect(schedulerConfigProblems(doc("maxSkew: 1\n    MaxSkew: 0"))).toEqual([]);
    expect(schedulerConfigProblems(doc("MaxSkew: 0\n    maxSkew: 1"))).toEqual([]);
  });
  test("an alias of no anchor, or an alias bomb, is invalid YAML (not a crash); reused anchors are fine", () => {
    expect(schedulerConfigProblems(doc("maxSkew: *nope"))).toEqual([
      expect.stringMatching(/^it is not valid YAML: .*nope/),
    ]);
    const level = (n: string, of: string) => `${n}: &${n} [${Array(9).fill(of).join(",")}]`;
    const bomb = [
      level("a", '"x"'),
      level("b", "*a"),
      level("c", "*b"),
      level("d", "*c"),
      level("e", "*d"),
      level("f", "*e"),
    ];
    expect(schedulerConfigProblems(bomb.join("\n"))).toEqual([expect.stringMatching(/^it is not valid YAML: .*alias/)]);
    let many = "podTopologySpread:\n  defaultConstraints:\n";
    for (let i = 0; i < 111; i++)
      many += `  - maxSkew: ${i === 0 ? "&s 1" : "*s"}\n    topologyKey: k${i}\n    whenUnsatisfiable: ${i === 0 ? "&w ScheduleAnyway" : "*w"}\n`;
    expect(schedulerConfigProblems(many)).toEqual([]);
  });
});
