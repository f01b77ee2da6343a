import * as path from "path";
import * as ts from "typescript";
import { crdKnown, knownMinors, versionData } from "../../lib/versions";
import { NODE_POOL_PROP_PATHS } from "../../lib/nodes/node-pool-rules";

/*
 * The typed props of NodePool and EC2NodeClass against the newest known release's CRD fields (generated data): a
 * field the CRD has and the props lack is a field users cannot set (as 1.15's enclaveOptions once was), and a prop
 * the CRD lacks emits a field the API server refuses.
 */

const SPEC_FILES = [
  "ec2-node-class-spec.ts",
  "node-pool-spec.ts",
  "node-overlay-spec.ts",
  "capacity-buffer-spec.ts",
].map((f) => path.join(__dirname, "../../lib/nodes", f));

/** Every interface of the spec files by name. */
function interfaces(): Map<string, ts.InterfaceDeclaration> {
  const out = new Map<string, ts.InterfaceDeclaration>();
  for (const file of SPEC_FILES) {
    const source = ts.createSourceFile(file, ts.sys.readFile(file)!, ts.ScriptTarget.ES2022, true);
    source.forEachChild((n) => {
      if (ts.isInterfaceDeclaration(n)) out.set(n.name.text, n);
    });
  }
  return out;
}

/** The dotted paths (arrays as `[]`) of an interface's properties, following the spec files' own interfaces. */
function propPaths(name: string, all = interfaces(), prefix = ""): string[] {
  const decl = all.get(name)!;
  const out: string[] = [];
  for (const m of decl.members) {
    if (!ts.isPropertySignature(m) || !m.type) continue;
    const key = m.name.getText();
    let type = m.type;
    let p = prefix ? `${prefix}.${key}` : key;
    out.push(p);
    if (ts.isTypeOperatorNode(type)) type = type.type; // readonly T[]
    if (ts.isArrayTypeNode(type)) {
      p = `${p}[]`;
      type = type.elementType;
    }
    if (ts.isTypeReferenceNode(type) && all.has(type.typeName.getText()))
      out.push(...propPaths(type.typeName.getText(), all, p));
  }
  return out;
}

const newest = versionData(knownMinors()[knownMinors().length - 1]);

test("every EC2NodeClass spec field of the newest release is a typed prop, and every typed prop a spec field", () => {
  const crd = newest.crds.ec2NodeClass;
  const freeForm = crd.freeForm ?? [];
  // below a free-form object (1.15's kubelet) the CRD lists no fields: the props type them from the kubelet's own
  // configuration, so only the object itself is compared there
  const under = (f: string) => freeForm.some((o) => f.startsWith(`${o}.`));
  // name is the object's metadata.name
  const props = propPaths("Ec2NodeClassOptions")
    .filter((p) => p !== "name")
    .map((p) => `spec.${p}`);
  const fields = crd.fields.filter((f) => !under(f));
  expect({ missing: fields.filter((f) => !props.includes(f)) }).toEqual({ missing: [] });
  expect({ extra: props.filter((p) => !under(p) && !fields.includes(p)) }).toEqual({ extra: [] });
});

test("every NodePool spec field of the newest release is a typed prop, and every typed prop a spec field", () => {
  // NodePoolOptions flattens the template: spec.template.spec.X and spec.template.metadata.X are props X
  const toProp = (f: string) => f.replace(/^spec\.template\.(spec|metadata)\./, "").replace(/^spec\./, "");
  // the template objects hold props, they are none themselves; nodeClassRef is the NodePool's nodeClass (a reference)
  const structural = (f: string) => /^spec\.template(\.spec|\.metadata)?$/.test(f) || /nodeClassRef/.test(f);
  const props = propPaths("NodePoolOptions").filter((p) => p !== "name"); // metadata.name
  const fields = newest.crds.nodePool.fields.filter((f) => !structural(f)).map(toProp);
  expect({ missing: fields.filter((f) => !props.includes(f)) }).toEqual({ missing: [] });
  expect({ extra: props.filter((p) => !fields.includes(p)) }).toEqual({ extra: [] });
});

test("NODE_POOL_PROP_PATHS wires every top-level NodePoolOptions prop to a field of the known NodePool CRDs, and only those", () => {
  const topLevel = propPaths("NodePoolOptions").filter((p) => !p.includes(".") && !p.includes("["));
  expect(Object.keys(NODE_POOL_PROP_PATHS).sort()).toEqual([...topLevel].sort());
  const known = crdKnown("nodePool").fields;
  const { name, ...spec } = NODE_POOL_PROP_PATHS;
  expect(name).toBe("metadata.name");
  expect({ notInCrd: Object.values(spec).filter((f) => !known.includes(f)) }).toEqual({ notInCrd: [] });
  // every field the props flatten (spec, its template's spec and metadata) has a prop; nodeClassRef is the nodeClass prop
  const flattened = known.filter(
    (f) =>
      /^spec\.(template\.(spec|metadata)\.)?[^.[]+$/.test(f) &&
      !/^spec\.template(\.spec|\.metadata)?$/.test(f) &&
      f !== "spec.template.spec.nodeClassRef",
  );
  expect({ unwired: flattened.filter((f) => !Object.values(spec).includes(f)) }).toEqual({ unwired: [] });
});

test.each([
  ["nodeOverlay", "NodeOverlayOptions", ["name"]],
  ["capacityBuffer", "CapacityBufferOptions", ["name", "namespace"]],
] as const)(
  "every %s spec field of the newest release is a typed prop of %s, and every typed prop a spec field",
  (kind, options, metadata) => {
    const crd = newest.crds[kind]!;
    const props = propPaths(options)
      .filter((p) => !(metadata as readonly string[]).includes(p))
      .map((p) => `spec.${p}`);
    expect({ missing: crd.fields.filter((f) => !props.includes(f)) }).toEqual({ missing: [] });
    expect({ extra: props.filter((p) => !crd.fields.includes(p)) }).toEqual({ extra: [] });
  },
);
