import {
  decodeGoJson,
  goFieldNameMatches,
  GO_INT32,
  GO_STRING,
  goMap,
  goPtr,
  goSlice,
  goStruct,
} from "../../lib/core/go-json";
import {
  aliasesWithoutAnchor,
  decodeGoYaml,
  formatGoFloat32,
  goYamlToJs,
  type GoYamlValue,
  MAX_ALIAS_EXPANSION,
} from "../../lib/core/go-yaml";
import { parseAllDocuments } from "yaml";

/** JSON as Go's json.Marshal writes a decoded value: map keys sorted by their bytes, Go's float text. */
function goJson(v: GoYamlValue): string {
  if (v === null || typeof v === "boolean" || typeof v === "bigint") return String(v);
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new Error("json: unsupported value");
    return Object.is(v, -0) ? "-0" : String(v);
  }
  if (typeof v === "string") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(goJson).join(",")}]`;
  const keys = [...v.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return `{${keys.map((k) => `${JSON.stringify(k)}:${goJson(v.get(k)!)}`).join(",")}}`;
}

/**
 * Each document with the JSON sigs.k8s.io/yaml v1.6.0 makes of it over go.yaml.in/yaml/v2 v2.4.4 (Go 1.26):
 * YAMLToJSON (Unmarshal's first step) and YAMLToJSONStrict (UnmarshalStrict's); null where Go returns an error.
 * Every row was run through the real functions (re-encoded with sorted keys; Go writes -0 for a negative zero).
 */
const YAML_TO_JSON: [string, string | null, string | null][] = [
  ["a: 0o7", '{"a":7}', '{"a":7}'],
  ["a: 0O7", '{"a":7}', '{"a":7}'],
  ["a: 07", '{"a":7}', '{"a":7}'],
  ["a: 08", '{"a":8}', '{"a":8}'],
  ["a: 09", '{"a":9}', '{"a":9}'],
  ["a: 010", '{"a":8}', '{"a":8}'],
  ["a: 0x10", '{"a":16}', '{"a":16}'],
  ["a: 0b101", '{"a":5}', '{"a":5}'],
  ["a: 1_000", '{"a":1000}', '{"a":1000}'],
  ["a: 0o8", '{"a":"0o8"}', '{"a":"0o8"}'],
  ["a: 0b2", '{"a":"0b2"}', '{"a":"0b2"}'],
  ["a: 0x_1", '{"a":1}', '{"a":1}'],
  ["a: +0o7", '{"a":7}', '{"a":7}'],
  ["a: -0o7", '{"a":-7}', '{"a":-7}'],
  ["a: 0_7", '{"a":7}', '{"a":7}'],
  ["a: 1_", '{"a":1}', '{"a":1}'],
  ["a: _1", '{"a":"_1"}', '{"a":"_1"}'],
  ["a: 0b-1", '{"a":-1}', '{"a":-1}'],
  ["a: 0b+1", '{"a":1}', '{"a":1}'],
  ["a: .5", '{"a":0.5}', '{"a":0.5}'],
  ["a: ._5", '{"a":"._5"}', '{"a":"._5"}'],
  ["a: .5_0", '{"a":0.5}', '{"a":0.5}'],
  ["a: 1e400", '{"a":"1e400"}', '{"a":"1e400"}'],
  ["a: 1e-400", '{"a":0}', '{"a":0}'],
  ["a: 9223372036854775808", '{"a":9223372036854775808}', '{"a":9223372036854775808}'],
  ["a: 0xFFFFFFFFFFFFFFFF", '{"a":18446744073709551615}', '{"a":18446744073709551615}'],
  ["a: -9223372036854775809", '{"a":-9223372036854776000}', '{"a":-9223372036854776000}'],
  ["a: 18446744073709551616", '{"a":18446744073709552000}', '{"a":18446744073709552000}'],
  ["a: 2001-12-14", '{"a":"2001-12-14"}', '{"a":"2001-12-14"}'],
  ["a: 2001-12-14T21:59:43.10-05:00", '{"a":"2001-12-14T21:59:43.10-05:00"}', '{"a":"2001-12-14T21:59:43.10-05:00"}'],
  ["a: 1:20", '{"a":"1:20"}', '{"a":"1:20"}'],
  ["a: yes", '{"a":true}', '{"a":true}'],
  ["a: yEs", '{"a":"yEs"}', '{"a":"yEs"}'],
  ["a: on", '{"a":true}', '{"a":true}'],
  ["a: n", '{"a":false}', '{"a":false}'],
  ["a: ~", '{"a":null}', '{"a":null}'],
  ["a: Null", '{"a":null}', '{"a":null}'],
  ["a: nULL", '{"a":"nULL"}', '{"a":"nULL"}'],
  ["a: .inf", null, null],
  ["a: 0x", '{"a":"0x"}', '{"a":"0x"}'],
  ["a: 1e", '{"a":"1e"}', '{"a":"1e"}'],
  ["a: 0x1p3", '{"a":"0x1p3"}', '{"a":"0x1p3"}'],
  ["a: Inf", '{"a":"Inf"}', '{"a":"Inf"}'],
  ["a: -0.0", '{"a":-0}', '{"a":-0}'],
  ["a: 1e21", '{"a":1e+21}', '{"a":1e+21}'],
  ["a: 0.0000001", '{"a":1e-7}', '{"a":1e-7}'],
  ["a: 1.0", '{"a":1}', '{"a":1}'],
  ["a: &x {k: 1}\nb: {<<: *x, k: 2}", '{"a":{"k":1},"b":{"k":2}}', null],
  ["a: &x {k: 1}\nb: {k: 2, <<: *x}", '{"a":{"k":1},"b":{"k":1}}', null],
  ["a: &x {k: 1}\nb: {<<: *x, j: 2}", '{"a":{"k":1},"b":{"j":2,"k":1}}', '{"a":{"k":1},"b":{"j":2,"k":1}}'],
  ["a: &x {k: 1}\nc: &y {k: 3}\nb: {<<: [*x, *y]}", '{"a":{"k":1},"b":{"k":1},"c":{"k":3}}', null],
  ["b: {<<: {k: 1}, k: 2}", '{"b":{"k":2}}', null],
  ["b: {<<: [{k: 1}, 3]}", null, null],
  ['b: {"<<": {k: 1}}', '{"b":{"<<":{"k":1}}}', '{"b":{"<<":{"k":1}}}'],
  ["b: {!!merge <<: {k: 1}}", '{"b":{"k":1}}', '{"b":{"k":1}}'],
  [
    "a: &x {k: 1}\nb: &x {k: 2}\nc: *x",
    '{"a":{"k":1},"b":{"k":2},"c":{"k":2}}',
    '{"a":{"k":1},"b":{"k":2},"c":{"k":2}}',
  ],
  ["a: *x\nb: &x 1", null, null],
  ["a: &x [*x]", null, null],
  ["a: &x 1\n---\nb: *x", '{"a":1}', '{"a":1}'],
  [
    "a: {1.5: a, 1e10: b, .inf: c, true: d, 0x10: e}",
    '{"a":{".inf":"c","1.5":"a","16":"e","1e+10":"b","true":"d"}}',
    '{"a":{".inf":"c","1.5":"a","16":"e","1e+10":"b","true":"d"}}',
  ],
  ["a: {true: a, yes: b}", '{"a":{"true":"b"}}', null],
  ["a: {~: a}", null, null],
  ["a: {[1]: a}", null, null],
  ['a: !!int "1"', '{"a":1}', '{"a":1}'],
  ["a: !!str 1", '{"a":"1"}', '{"a":"1"}'],
  ["a: !!float 1", '{"a":1}', '{"a":1}'],
  ["a: !!int 1.5", null, null],
  ["a: !!null x", null, null],
  ["a: !foo 1", '{"a":"1"}', '{"a":"1"}'],
  ["a: !!binary aGk=", '{"a":"hi"}', '{"a":"hi"}'],
  ["a: [b: 1, c]", '{"a":[{"b":1},"c"]}', '{"a":[{"b":1},"c"]}'],
  ["a: 1\nA: 2", '{"A":2,"a":1}', '{"A":2,"a":1}'],
  ["a: 1\na: 2", '{"a":2}', null],
];

describe("decodeGoYaml: go-yaml v2 into sigs.k8s.io/yaml's JSON, as Go decides", () => {
  test.each(YAML_TO_JSON)("%j: %s / strict %s", (doc, json, strict) => {
    for (const [expected, isStrict] of [
      [json, false],
      [strict, true],
    ] as const) {
      const r = decodeGoYaml(doc, { strict: isStrict });
      let got: string | null;
      try {
        got = "error" in r ? null : goJson(r.value);
      } catch {
        got = null; // json.Marshal refuses ±Inf and NaN
      }
      expect(got).toBe(expected);
    }
  });

  test("a merge applies where it is written: non-strict, a merge after a key overrides it; strict refuses either order", () => {
    const over = decodeGoYaml("a: &x {k: 1}\nb: {k: 2, <<: *x}", { strict: false });
    expect("value" in over && goJson(over.value)).toBe('{"a":{"k":1},"b":{"k":1}}');
    const strict = decodeGoYaml("a: &x {k: 1}\nb: {<<: *x, k: 2}", { strict: true });
    expect(strict).toEqual({ error: expect.stringMatching(/line 2: key "k" already set in map/) });
    // the look-alike: a merge of other keys is no duplicate
    expect(decodeGoYaml("a: &x {k: 1}\nb: {<<: *x, j: 2}", { strict: true })).toHaveProperty("value");
  });

  test(`the aliases of a document decode to at most ${MAX_ALIAS_EXPANSION} nodes (a policy; Go's own limit is a ratio)`, () => {
    // 300 plain entries keep the aliased share under go-yaml v2's 99%: Go decodes this document (checked)
    const pad = Array.from({ length: 300 }, (_, i) => `p${i}: [1, 2]`);
    const level = (n: string, of: string) => `${n}: &${n} [${Array(10).fill(of).join(", ")}]`;
    const doc = (copies: number) =>
      [...pad, level("a", "x"), level("b", "*a"), level("c", "*b"), `d: [${Array(copies).fill("*c").join(", ")}]`].join(
        "\n",
      );
    expect(decodeGoYaml(doc(7), { strict: true })).toHaveProperty("value");
    expect(decodeGoYaml(doc(8), { strict: true })).toEqual({
      error: expect.stringContaining(`more than ${MAX_ALIAS_EXPANSION} nodes`),
      aliasCap: true,
    });
    // past the cap the decoder counts on without building values, to Go's own verdict: 10^5 aliased nodes behind the
    // same 300 entries pass go-yaml v2's 99% (checked with go.yaml.in/yaml/v2 v2.4.4: "document contains excessive
    // aliasing"), 10^4 behind them do not
    const wide = (levels: number) =>
      [
        ...pad,
        `a0: &a0 [${Array(10).fill("x").join(", ")}]`,
        ...Array.from(
          { length: levels - 1 },
          (_, i) => `a${i + 1}: &a${i + 1} [${Array(10).fill(`*a${i}`).join(", ")}]`,
        ),
      ].join("\n");
    expect(decodeGoYaml(wide(5), { strict: false })).toEqual({ error: "yaml: document contains excessive aliasing" });
    expect(decodeGoYaml(wide(4), { strict: false })).toMatchObject({ aliasCap: true });
    // without the padding go-yaml v2 refuses a document almost all aliases itself
    expect(
      decodeGoYaml([level("a", "x"), level("b", "*a"), level("c", "*b"), "d: [*c, *c, *c]"].join("\n"), {
        strict: false,
      }),
    ).toEqual({
      error: "yaml: document contains excessive aliasing",
    });
  });

  test("nesting deeper than the stack is an error, not a crash", () => {
    const deep = decodeGoYaml(`a: ${"[".repeat(20000)}${"]".repeat(20000)}`, { strict: false });
    expect(deep).toMatchObject({
      tooDeep: true,
      error: expect.stringMatching(/^yaml: the document nests at least \d+ levels deep/),
    });
    expect(deep).not.toHaveProperty("error", expect.stringContaining("Maximum call stack"));
    expect(decodeGoYaml(`a: ${"[".repeat(200)}${"]".repeat(200)}`, { strict: false })).toHaveProperty("value");
  });
});

describe("formatGoFloat32: strconv.FormatFloat(f, 'g', -1, 32), as sigs.k8s.io/yaml writes a float into a string", () => {
  // each value run through Go 1.26's strconv (Dragonbox: the closest shortest digits, a tie to even, up at a power of two)
  test.each([
    [1.5, "1.5"],
    [1234567, "1.234567e+06"],
    [123456, "123456"],
    [16777217, "1.6777216e+07"],
    [1e21, "1e+21"],
    [1e-5, "1e-05"],
    [0.0001, "0.0001"],
    [519820.125, "519820.12"],
    [519820.375, "519820.38"],
    [0.000244140625, "0.00024414063"],
    [-0, "-0"],
    [3.4028235e38, "3.4028235e+38"],
    [3.5e38, "+Inf"],
    [0.1, "0.1"],
    [100000, "100000"],
    [1e6, "1e+06"],
    [-2.5e-7, "-2.5e-07"],
    [NaN, "NaN"],
  ])("%d -> %s", (f, s) => expect(formatGoFloat32(f)).toBe(s));
});

describe("goFieldNameMatches: encoding/json's Unicode simple folding of field names", () => {
  test.each([
    ["maxSkew", "maxSkew", true],
    ["MAXSKEW", "maxSkew", true],
    ["maxſkew", "maxSkew", true], // U+017F folds to s
    ["topology\u212Aey", "topologyKey", true], // the Kelvin sign folds to k
    ["maxśkew", "maxSkew", false], // s with an accent is another letter
    ["m\u0130nDomains", "minDomains", false], // dotted capital I has no simple folding to i
    ["m\u0131nDomains", "minDomains", false], // nor dotless i
    ["maxSkew\u0307", "maxSkew", false],
  ])("%s ~ %s: %s", (key, name, ok) => expect(goFieldNameMatches(key, name)).toBe(ok));
});

describe("decodeGoJson: encoding/json (v1) into a Go struct, as sigs.k8s.io/yaml's Unmarshal / UnmarshalStrict", () => {
  const T2 = goStruct({ a: GO_STRING, b: GO_INT32 });
  const TT = goStruct({
    name: GO_STRING,
    count: GO_INT32,
    sub: goPtr(T2),
    items: goSlice(T2),
    labels: goMap(GO_STRING),
  });
  /** The struct as json.Marshal writes it (fields in Go's order, a map's keys sorted). */
  const marshal = (v: unknown): string =>
    v instanceof Map
      ? `{${[...v.keys()]
          .sort()
          .map((k) => `${JSON.stringify(k)}:${marshal(v.get(k))}`)
          .join(",")}}`
      : Array.isArray(v)
        ? `[${v.map(marshal).join(",")}]`
        : v !== null && typeof v === "object"
          ? `{${Object.entries(v)
              .map(([k, e]) => `${JSON.stringify(k)}:${marshal(e)}`)
              .join(",")}}`
          : JSON.stringify(v);
  // Go: type T2 struct { A string \`json:"a"\`; B int32 \`json:"b"\` }; type TT struct { Name string \`json:"name"\`;
  // Count int32 \`json:"count"\`; Sub *T2 \`json:"sub"\`; Items []T2 \`json:"items"\`; Labels map[string]string \`json:"labels"\` },
  // each document decoded by yaml.Unmarshal (the struct as left, and whether it erred) and yaml.UnmarshalStrict
  const CASES: [string, string, boolean, boolean][] = [
    ["name: x\ncount: 3", '{"name":"x","count":3,"sub":null,"items":null,"labels":null}', false, false],
    ["Name: x\nname: z", '{"name":"z","count":0,"sub":null,"items":null,"labels":null}', false, false],
    ["name: x\nNAME: null", '{"name":"x","count":0,"sub":null,"items":null,"labels":null}', false, false],
    ["count: 1\nCount: null", '{"name":"","count":1,"sub":null,"items":null,"labels":null}', false, false],
    ['Count: "1"\ncount: 2', '{"name":"","count":2,"sub":null,"items":null,"labels":null}', true, true],
    [
      "Sub: {a: x}\nsub: {b: 2}",
      '{"name":"","count":0,"sub":{"a":"x","b":2},"items":null,"labels":null}',
      false,
      false,
    ],
    ["Sub: {a: x}\nsub: null", '{"name":"","count":0,"sub":null,"items":null,"labels":null}', false, false],
    [
      "SUB: {a: x, b: 1}\nSub: 5\nsub: {b: 2}",
      '{"name":"","count":0,"sub":{"a":"x","b":2},"items":null,"labels":null}',
      true,
      true,
    ],
    [
      "ITEMS: [{a: p, b: 1}, {a: q, b: 2}]\nItems: [{}]\nitems: [{}, {}]",
      '{"name":"","count":0,"sub":null,"items":[{"a":"p","b":1},{"a":"q","b":2}],"labels":null}',
      false,
      false,
    ],
    [
      "ITEMS: [{a: p, b: 1}, {a: q, b: 2}]\nItems: null\nitems: [{}, {}]",
      '{"name":"","count":0,"sub":null,"items":[{"a":"","b":0},{"a":"","b":0}],"labels":null}',
      false,
      false,
    ],
    [
      "Items: [{a: x}]\nitems: [{b: 2}]",
      '{"name":"","count":0,"sub":null,"items":[{"a":"x","b":2}],"labels":null}',
      false,
      false,
    ],
    ["Items: [{a: x}]\nitems: []", '{"name":"","count":0,"sub":null,"items":[],"labels":null}', false, false],
    [
      "Labels: {a: x, b: w}\nlabels: {b: z, c: 1}",
      '{"name":"","count":0,"sub":null,"items":null,"labels":{"a":"x","b":"z","c":"1"}}',
      false,
      false,
    ],
    ["Labels: {a: x}\nlabels: null", '{"name":"","count":0,"sub":null,"items":null,"labels":null}', false, false],
    ["labels: {a: [1]}", '{"name":"","count":0,"sub":null,"items":null,"labels":{"a":""}}', true, true],
    [
      "name: 1.5\nlabels: {a: 1e6, b: true, c: 0x10}",
      '{"name":"1.5","count":0,"sub":null,"items":null,"labels":{"a":"1e+06","b":"true","c":"16"}}',
      false,
      false,
    ],
    ["bogus: 1\nname: x", '{"name":"x","count":0,"sub":null,"items":null,"labels":null}', false, true],
    ["sub: {a: x, zz: 1}", '{"name":"","count":0,"sub":{"a":"x","b":0},"items":null,"labels":null}', false, true],
    ["ſub: {a: x}", '{"name":"","count":0,"sub":{"a":"x","b":0},"items":null,"labels":null}', false, false],
    ["count: 2147483648", '{"name":"","count":0,"sub":null,"items":null,"labels":null}', true, true],
    ["count: 1.0", '{"name":"","count":1,"sub":null,"items":null,"labels":null}', false, false],
    ["items: {a: x}", '{"name":"","count":0,"sub":null,"items":null,"labels":null}', true, true],
    ["sub: 1", '{"name":"","count":0,"sub":{"a":"","b":0},"items":null,"labels":null}', true, true],
  ];
  test.each(CASES)("%j -> %s (error: %s, strict: %s)", (doc, struct, err, strictErr) => {
    for (const [strict, fails] of [
      [false, err],
      [true, strictErr],
    ] as const) {
      const y = decodeGoYaml(doc, { strict });
      if (!("value" in y)) throw new Error(y.error);
      const d = decodeGoJson(TT, y.value, { strict, root: "doc" });
      expect(marshal(d.value)).toBe(struct);
      expect(d.problems.length > 0).toBe(fails);
    }
  });
  test("problems name the key as written and the Go field path", () => {
    const y = decodeGoYaml('Count: "1"\nsub: {zz: 1}', { strict: true });
    if (!("value" in y)) throw new Error(y.error);
    expect(decodeGoJson(TT, y.value, { strict: true, root: "doc" }).problems).toEqual([
      {
        path: "Count",
        trail: ["count"],
        problem:
          'is a string ("1"), not a 32-bit whole number: write 1 unquoted (encoding/json cannot unmarshal a string into an int32)',
      },
      { path: "sub", trail: ["sub"], problem: 'has an unknown field "zz" (known: a, b)' },
    ]);
  });
});

describe("aliasesWithoutAnchor, goYamlToJs", () => {
  test("an alias with no anchor before it in its own document; one in another document does not count", () => {
    const docs = parseAllDocuments("a: &x 1\nb: *x\n---\nc: *x\nd: &y 2\ne: *y\nf: *z\n");
    expect(aliasesWithoutAnchor(docs[0] as never)).toEqual([]);
    expect(aliasesWithoutAnchor(docs[1] as never).map((a) => a.source)).toEqual(["x", "z"]);
  });
  test("maps become objects (a __proto__ key is a key), integers numbers", () => {
    const y = decodeGoYaml("__proto__: {a: 1}\nb: 9007199254740993\nc: [0x10]", { strict: false });
    if (!("value" in y)) throw new Error(y.error);
    const js = goYamlToJs(y.value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(js)).toBe(Object.prototype);
    expect(Object.keys(js)).toEqual(["__proto__", "b", "c"]);
    expect(js.c).toEqual([16]);
    expect(js.b).toBe(9007199254740992);
  });
});
