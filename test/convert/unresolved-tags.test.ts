import { convertLegacyManifests } from "../../lib/convert";
import { noteAbout, notesAbout, onlyClass, onlyPool } from "./util";

/*
 * fresh6 CL6: a manifest with YAML tags the reader does not know (CloudFormation's `!Ref TeamName`) was converted
 * with the tag silently dropped. Each such tag now gets an `action` note naming the path and the tag.
 */

const provisioner = (labels: string) => `apiVersion: karpenter.sh/v1alpha5
kind: Provisioner
metadata:
  name: tagged
spec:
  providerRef:
    name: default
  labels:
${labels}
`;

describe("CL6: unknown YAML tags", () => {
  test("a label value !Ref TeamName: an action note naming the path, the tag and the value read", () => {
    const pool = onlyPool(provisioner("    team: !Ref TeamName"));
    expect(pool.props.labels).toEqual({ team: "TeamName" });
    const note = noteAbout(pool.notes, "spec.labels.team");
    expect(note.level).toBe("action");
    expect(note.invalid).toBeUndefined();
    expect(note.message).toContain("the YAML tag !Ref");
    expect(note.message).toContain('converted as written ("TeamName")');
  });
  test("tags on a list, a mapping and a key, in a List item and an EC2NodeClass", () => {
    const yaml = `apiVersion: v1
kind: List
items:
  - apiVersion: karpenter.k8s.aws/v1
    kind: EC2NodeClass
    metadata:
      name: cls
    spec:
      amiSelectorTerms:
        - alias: al2023@latest
      role: !Sub "KarpenterNodeRole-\${ClusterName}"
      subnetSelectorTerms: !If
        - tags:
            karpenter.sh/discovery: demo
      securityGroupSelectorTerms:
        - tags:
            !Ref TagKey: owned
      tags: !Custom
        team: x
`;
    const cls = onlyClass(yaml);
    const tagged = cls.notes.filter((n) => n.message.includes("YAML tag"));
    expect(tagged.map((n) => [n.field, n.level])).toEqual([
      ["spec.role", "action"],
      ["spec.subnetSelectorTerms", "action"],
      ["spec.securityGroupSelectorTerms[0].tags.TagKey", "action"],
      ["spec.tags", "action"],
    ]);
    expect(tagged[1].message).toContain("!If");
    expect(tagged[1].message).toContain("(a list)");
    expect(tagged[2].message).toMatch(/^the key has the YAML tag !Ref/);
    expect(tagged[3].message).toContain("(a mapping)");
  });
  test("look-alikes: YAML's own tag (!!str), the non-specific tag and plain values get no note", () => {
    const pool = onlyPool(provisioner("    team: !!str 123\n    app: ! web\n    owner: TeamName"));
    expect(pool.props.labels).toEqual({ team: "123", app: "web", owner: "TeamName" });
    expect(pool.notes.filter((n) => n.message.includes("YAML tag"))).toEqual([]);
  });
  test("a tag in a document that is not converted gets no note", () => {
    const r = convertLegacyManifests("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: !Ref B\n");
    expect(r.objects).toEqual([]);
    expect(notesAbout(r.notes, "document 1").map((n) => n.level)).toEqual(["info"]);
  });
});
