import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { Testing } from "cdktf";
import { Karpenter } from "../../lib/install/karpenter";
import { KarpenterProps } from "../../lib/install/karpenter-props";
import { walkProps } from "../../lib/core/readable-props";
import { rejected, testCluster, testStack } from "../helpers";

/*
 * A map of Karpenter's props read with JSON.parse can hold an own "__proto__" key, which the way to the Terraform JSON
 * and the Helm values drops: `tags: JSON.parse('{"__proto__":"x","a":"b"}')` tagged the roles with { a: "b" } alone.
 * Refused as PROPS_VALUE_PROTO_KEY, found by the same walk that finds unreadable props (core/readable-props.ts
 * walkProps), as node objects refuse it (NODE_VALUE_PROTO_KEY).
 */

function install(props: Partial<KarpenterProps>) {
  const { stack } = testStack();
  new HelmProvider(stack, "helm", {});
  new KubernetesProvider(stack, "kubernetes", {});
  new Karpenter(stack, "karpenter", { cluster: testCluster(stack), ...props } as KarpenterProps);
  return JSON.parse(Testing.synth(stack));
}

describe("Karpenter props maps with a __proto__ key", () => {
  test("tags and values are refused, every place at once", () => {
    const e = rejected(() =>
      install({
        tags: JSON.parse('{"__proto__": "x", "team": "a"}'),
        values: JSON.parse('{"additionalAnnotations": {"__proto__": "x"}, "a": {"__proto__": {"b": 1}}}'),
      }),
    );
    expect(e.problems.map((p) => p.code)).toEqual([
      "PROPS_VALUE_PROTO_KEY",
      "PROPS_VALUE_PROTO_KEY",
      "PROPS_VALUE_PROTO_KEY",
    ]);
    expect(e.problems.map((p) => p.field)).toEqual([
      "tags.__proto__",
      "values.a.__proto__",
      "values.additionalAnnotations.__proto__",
    ]);
    expect(e.message).toContain("dropped without a word");
  });

  test("nested option maps (the node role's tags) are refused too", () => {
    const e = rejected(() =>
      install({ nodeRole: { tags: JSON.parse('{"__proto__": "x"}') } } as Partial<KarpenterProps>),
    );
    expect(e.code).toBe("PROPS_VALUE_PROTO_KEY");
    expect(e.message).toContain("nodeRole.tags.__proto__");
  });

  test("look-alikes pass: JSON.parse'd tags and values without __proto__, a key that merely contains it", () => {
    const json = install({
      tags: JSON.parse('{"team": "a", "x__proto__": "y"}'),
      values: JSON.parse('{"additionalAnnotations": {"a.example.com/proto": "y"}}'),
    });
    const release = Object.values(json.resource.helm_release).find((r) =>
      JSON.stringify(r).includes("a.example.com/proto"),
    );
    expect(release).toBeDefined();
    const tags = Object.values(json.resource.aws_iam_role).map((r) => (r as { tags: unknown }).tags);
    expect(tags).toContainEqual({ team: "a", x__proto__: "y" });
  });

  test("one walk reports unreadable places and __proto__ keys, a __proto__ in a list's map too", () => {
    const found = walkProps({ a: [JSON.parse('{"__proto__": 1}')], b: JSON.parse('{"__proto__": {"c": 1}}') });
    expect(found).toEqual({ unreadable: [], protoKeys: ["a[0].__proto__", "b.__proto__"] });
  });
});
