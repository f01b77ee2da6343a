import { schedulerConfigProblems } from "../../lib/helm/scheduler-config";

/*
 * Each document with whether sigs.k8s.io/karpenter v1.15.0's ParseSchedulerConfiguration accepts it: the function
 * (pkg/operator/options/options.go:333-420) run offline with sigs.k8s.io/yaml v1.6.0 and a copy of
 * corev1.TopologySpreadConstraint's JSON fields, 55 documents; then the function copied whole into a Go 1.26
 * program over sigs.k8s.io/yaml v1.6.0, go.yaml.in/yaml/v2 v2.4.4, k8s.io/api and k8s.io/apimachinery v0.36.1
 * (karpenter v1.15.0's go.mod), which agreed on those 55 and decided the 69 after them: `<<` merges in strict mode,
 * two spellings of one field, go-yaml v2's number forms, a float in a string field, Unicode folding of field names.
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
  // a `<<` merge whose key is also written (either order, or two merged maps): UnmarshalStrict's go-yaml v2 refuses
  // a key set twice; valid look-alikes merge keys written nowhere else (or another spelling, MaxSkew)
  // two spellings of one field: both decoded in sorted order, a struct (behind a pointer too) or list element filled
  // in, a scalar replaced, null a no-op on a number or string and nil for a pointer or list
  // go-yaml v2's numbers (strconv.ParseInt base 0 after dropping `_`, then ParseFloat): 0o7, 07, 08, 0b+1, 1_ are
  // numbers, 0o8, 0b2, _1, 1e400 text; a float in topologyKey is written as FormatFloat('g', -1, 32) ("1e+06")
  // field names fold by Unicode simple folding: ſ is s, not ś; İ and ı are no i
  [
    "podTopologySpread: {defaultConstraints: [&c {maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}, {<<: *c, whenUnsatisfiable: ScheduleAnyway}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [&c {maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}, {whenUnsatisfiable: ScheduleAnyway, <<: *c}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [&c {maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}, {<<: *c, topologyKey: b}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{<<: {maxSkew: 1, whenUnsatisfiable: DoNotSchedule}, topologyKey: a}]}",
    true,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{<<: {maxSkew: 1, topologyKey: a}, maxSkew: 2, whenUnsatisfiable: DoNotSchedule}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 2, <<: {maxSkew: 1, topologyKey: a}, whenUnsatisfiable: DoNotSchedule}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{<<: [{maxSkew: 1}, {topologyKey: a}], whenUnsatisfiable: DoNotSchedule}]}",
    true,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{<<: [{maxSkew: 1}, {maxSkew: 2}], topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{<<: {maxSkew: 1, topologyKey: a}, MaxSkew: 2, whenUnsatisfiable: DoNotSchedule}]}",
    true,
  ],
  [
    "PodTopologySpread: {defaultConstraints: [{maxSkew: 0, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}\npodTopologySpread: {}",
    false,
  ],
  [
    "PodTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}\npodTopologySpread: {}",
    true,
  ],
  [
    "PodTopologySpread: {defaultConstraints: [{maxSkew: 0, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}\npodTopologySpread: null",
    true,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 0, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}\nPodTopologySpread: null",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule, LabelSelector: {matchLabelz: {}}, labelSelector: null}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule, LabelSelector: {matchLabels: {a: b}}, labelSelector: null}]}",
    true,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule, LabelSelector: 5, labelSelector: null}]}",
    false,
  ],
  [
    'podTopologySpread: {defaultConstraints: [{MaxSkew: "1", maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}',
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{MaxSkew: 1, maxSkew: null, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}",
    true,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{TopologyKey: a, topologyKey: null, maxSkew: 1, whenUnsatisfiable: DoNotSchedule}]}",
    true,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule, MatchLabelKeys: [x], matchLabelKeys: null}]}",
    true,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule, MinDomains: x, minDomains: 1}]}",
    false,
  ],
  [
    "podTopologySpread: {DefaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}], defaultConstraints: [{topologyKey: b}]}",
    true,
  ],
  [
    "podTopologySpread: {DefaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}], defaultConstraints: [{maxSkew: 0}]}",
    false,
  ],
  [
    "podTopologySpread: {DEFAULTCONSTRAINTS: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}, {maxSkew: 1, topologyKey: b, whenUnsatisfiable: DoNotSchedule}], DefaultConstraints: [{}], defaultConstraints: [{}, {}]}",
    true,
  ],
  [
    "podTopologySpread: {DEFAULTCONSTRAINTS: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}, {maxSkew: 0, topologyKey: b, whenUnsatisfiable: DoNotSchedule}], DefaultConstraints: [{}], defaultConstraints: [{}, {}]}",
    false,
  ],
  [
    "podTopologySpread: {DEFAULTCONSTRAINTS: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}, {maxSkew: 1, topologyKey: b, whenUnsatisfiable: DoNotSchedule}], DefaultConstraints: null, defaultConstraints: [{}, {}]}",
    false,
  ],
  ["podTopologySpread: {DefaultConstraints: [{maxSkew: 0}], defaultConstraints: []}", true],
  ["podTopologySpread: {DefaultConstraints: {}, defaultConstraints: []}", false],
  ["podTopologySpread: {defaultConstraints: [{maxSkew: 0o7, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}", true],
  ["podTopologySpread: {defaultConstraints: [{maxSkew: 07, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}", true],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 0o8, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}",
    false,
  ],
  ["podTopologySpread: {defaultConstraints: [{maxSkew: 08, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}", true],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 0b2, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: +0o7, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}",
    true,
  ],
  ["podTopologySpread: {defaultConstraints: [{maxSkew: 1_, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}", true],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 0b-1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 0b+1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}",
    true,
  ],
  ["podTopologySpread: {defaultConstraints: [{maxSkew: .5, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}", false],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1__0, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}",
    true,
  ],
  ["podTopologySpread: {defaultConstraints: [{maxSkew: _1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}", false],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1e400, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: 1234567.0, whenUnsatisfiable: DoNotSchedule}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: 123456.0, whenUnsatisfiable: DoNotSchedule}]}",
    true,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: 0x10, whenUnsatisfiable: DoNotSchedule}]}",
    true,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: 1e21, whenUnsatisfiable: DoNotSchedule}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: .inf, whenUnsatisfiable: DoNotSchedule}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: 1e6, whenUnsatisfiable: DoNotSchedule}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: 100000, whenUnsatisfiable: DoNotSchedule}]}",
    true,
  ],
  ["podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: 0o7, whenUnsatisfiable: DoNotSchedule}]}", true],
  ["podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: 08, whenUnsatisfiable: DoNotSchedule}]}", true],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: -0.0, whenUnsatisfiable: DoNotSchedule}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule, nodeAffinityPolicy: 1.5}]}",
    true,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule, extra: .inf}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{max\u017Fkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}",
    true,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{max\u015Bkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule, m\u0130nDomains: 1}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule, m\u0131nDomains: 1}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUn\u017Fati\u017Ffiable: DoNotSchedule}]}",
    true,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{max\u017Fkew: 0, maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 0, max\u017Fkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}",
    true,
  ],
  ["podTopology\u017Fpread: {}", true],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabel\u017F: {}}}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule, label\u017Felector: null}]}",
    true,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule, maxSkew\u0307: 1}]}",
    false,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: 1, topologyKey: a, whenUnsatisfiable: !!binary RG9Ob3RTY2hlZHVsZQ==}]}",
    true,
  ],
  [
    'podTopologySpread: {defaultConstraints: [{maxSkew: !!int "1", topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}',
    true,
  ],
  [
    "podTopologySpread: {defaultConstraints: [{maxSkew: !!float 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}",
    true,
  ],
  ["podTopologySpread: {defaultConstraints: [maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule]}", false],
  [
    "podTopologySpread: {defaultConstraints: [&a {maxSkew: 1, topologyKey: a, whenUnsatisfiable: DoNotSchedule}]}\n---\nb: *a",
    true,
  ],
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
  test("of two spellings of a scalar field the one sorting last wins, wherever it is written", () => {
    expect(schedulerConfigProblems(doc("maxSkew: 0\n    MaxSkew: 1"))).toEqual([
      "podTopologySpread.defaultConstraints[0].maxSkew must be greater than 0 (it is 0)",
    ]);
    expect(schedulerConfigProblems(doc("MaxSkew: 1\n    maxSkew: 0"))).toHaveLength(1);
    expect(schedulerConfigProblems(doc("maxSkew: 1\n    MaxSkew: 0"))).toEqual([]);
    expect(schedulerConfigProblems(doc("MaxSkew: 0\n    maxSkew: 1"))).toEqual([]);
  });
  test("of two spellings of an object field both are decoded: the later fills the earlier in, its errors count", () => {
    const bad = "{maxSkew: 0, topologyKey: a, whenUnsatisfiable: DoNotSchedule}";
    // the look-alike a "last wins" reader takes: {} replaces nothing, the bad constraint stays
    expect(schedulerConfigProblems(`PodTopologySpread: {defaultConstraints: [${bad}]}\npodTopologySpread: {}`)).toEqual(
      ["podTopologySpread.defaultConstraints[0].maxSkew must be greater than 0 (it is 0)"],
    );
    expect(
      schedulerConfigProblems(`PodTopologySpread: {defaultConstraints: [${bad}]}\npodTopologySpread: null`),
    ).toEqual([]);
    expect(schedulerConfigProblems(doc('MaxSkew: "1"\n    maxSkew: 1'))).toEqual([
      'podTopologySpread.defaultConstraints[0].MaxSkew is a string ("1"), not a 32-bit whole number: write 1 unquoted (encoding/json cannot unmarshal a string into an int32)',
    ]);
    // null leaves a number as it was (encoding/json literalStore)
    expect(schedulerConfigProblems(doc("MaxSkew: 1\n    maxSkew: null"))).toEqual([]);
    expect(
      schedulerConfigProblems(doc("maxSkew: 1\n    LabelSelector: {matchLabelz: {}}\n    labelSelector: null")),
    ).toEqual([
      'podTopologySpread.defaultConstraints[0].LabelSelector has an unknown field "matchLabelz" (known: matchLabels, matchExpressions)',
    ]);
  });
  test("a << merge of a key also written is refused (strict YAML), in either order; other keys merge", () => {
    const merged = (c: string) => `podTopologySpread: {defaultConstraints: [${c}]}`;
    expect(
      schedulerConfigProblems(
        merged("{<<: {maxSkew: 1, topologyKey: a}, maxSkew: 2, whenUnsatisfiable: DoNotSchedule}"),
      ),
    ).toEqual([
      expect.stringMatching(
        /^it is not valid YAML: unmarshal errors: line 1: key "maxSkew" already set in map \(.*`<<` merge too\)$/,
      ),
    ]);
    expect(
      schedulerConfigProblems(
        merged("{maxSkew: 2, <<: {maxSkew: 1, topologyKey: a}, whenUnsatisfiable: DoNotSchedule}"),
      ),
    ).toHaveLength(1);
    expect(
      schedulerConfigProblems(merged("{<<: {maxSkew: 1, whenUnsatisfiable: DoNotSchedule}, topologyKey: a}")),
    ).toEqual([]);
  });
  test("a document nested deeper than the reader follows is named as such, not as invalid YAML (fresh tester 12 C-1)", () => {
    const [why] = schedulerConfigProblems(`a: ${"[".repeat(5000)}${"]".repeat(5000)}`);
    expect(why).toMatch(
      /^it cannot be read here: the document nests at least \d+ levels deep \(at line 1, column \d+\)/,
    );
    expect(why).toContain("deeper than this library's YAML reader can follow");
    expect(why).not.toContain("not valid YAML");
    expect(why).not.toContain("Maximum call stack");
    // the look-alike nested a few hundred levels is read, and refused only for its unknown field
    expect(schedulerConfigProblems(`a: ${"[".repeat(300)}${"]".repeat(300)}`)).toEqual([
      'the document has an unknown field "a" (known: podTopologySpread)',
    ]);
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
