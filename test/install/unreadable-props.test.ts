import { TerraformVariable, Token } from "cdktf";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { Karpenter } from "../../lib/install/karpenter";
import { KarpenterProps } from "../../lib/install/karpenter-props";
import { KarpenterRelease } from "../../lib/helm/karpenter-release";
import { KarpenterCrdRelease } from "../../lib/helm/karpenter-crd-release";
import { KarpenterNodeRole } from "../../lib/aws/karpenter-node-role";
import { KarpenterControllerRole } from "../../lib/aws/karpenter-controller-role";
import { InterruptionQueue } from "../../lib/aws/interruption-queue";
import { findUnreadable } from "../../lib/core/readable-props";
import { rejected, testCluster, testStack } from "../helpers";

/*
 * fresh11 X-1..X-9: nested props of Karpenter (and of the building blocks a user creates directly) that throw when
 * read escaped as a raw TypeError or Error from whichever check read them first. They are refused first, every
 * such place at once, as PROPS_VALUE_UNREADABLE naming the field path.
 */

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function setup() {
  const { stack } = testStack();
  new HelmProvider(stack, "helm", {});
  new KubernetesProvider(stack, "kubernetes", {});
  return { stack, cluster: testCluster(stack) };
}

function install(props: Partial<KarpenterProps>) {
  const { stack, cluster } = setup();
  return new Karpenter(stack, "karpenter", { cluster, ...props } as KarpenterProps);
}

/** The fields of the PROPS_VALUE_UNREADABLE problems of `fn`'s error (every problem has that code). */
function unreadable(fn: () => unknown): string[] {
  const e = rejected(fn);
  expect(e.problems.map((p) => p.code)).toEqual(e.problems.map(() => "PROPS_VALUE_UNREADABLE"));
  expect(e.problems.map((p) => p.path)).toEqual(e.problems.map(() => "test/karpenter"));
  return e.problems.map((p) => p.field);
}

const throwingGetter = (key: string) =>
  Object.defineProperty({}, key, {
    enumerable: true,
    get() {
      throw new Error("boom getter");
    },
  });

describe("Karpenter props that throw when read (fresh11 X-1..X-9)", () => {
  test("X-1: settings a Proxy whose ownKeys trap throws", () => {
    const settings = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error("boom");
        },
      },
    );
    const e = rejected(() => install({ settings: settings as never }));
    expect(e.code).toBe("PROPS_VALUE_UNREADABLE");
    expect(e.field).toBe("settings");
    expect(e.message).toContain('reading settings threw "boom"');
  });
  test.each([
    ["X-2", "settings"],
    ["X-3", "values"],
    ["X-7", "tags"],
    ["X-8", "nodeRole"],
    ["X-9", "identity"],
  ])("%s: %s a revoked Proxy", (_, field) => {
    expect(unreadable(() => install({ [field]: revoked() }))).toEqual([field]);
  });
  test("X-4: a values getter that throws is named at its key", () => {
    expect(unreadable(() => install({ values: throwingGetter("replicas") }))).toEqual(["values.replicas"]);
  });
  test("X-5: settings.featureGates a revoked Proxy", () => {
    expect(unreadable(() => install({ settings: { featureGates: revoked() } as never }))).toEqual([
      "settings.featureGates",
    ]);
  });
  test("X-6: a controllerResources getter that throws", () => {
    expect(unreadable(() => install({ controllerResources: throwingGetter("requests") as never }))).toEqual([
      "controllerResources.requests",
    ]);
  });
  test("every unreadable place at once, deep in lists too, in the order of the props", () => {
    const fields = unreadable(() =>
      install({
        settings: revoked() as never,
        values: { controller: { env: [revoked(), { name: "A", value: "b" }] }, "pod/x": throwingGetter("y") },
        tags: revoked() as never,
      }),
    );
    expect(fields).toEqual(["settings", "values.controller.env[0]", 'values["pod/x"].y', "tags"]);
  });
  test("a props object that is itself a revoked Proxy", () => {
    const { stack } = setup();
    const e = rejected(() => new Karpenter(stack, "karpenter", revoked() as KarpenterProps));
    expect([e.code, e.field]).toEqual(["PROPS_VALUE_UNREADABLE", "props"]);
  });
  test("the install leaves the tree when refused", () => {
    const { stack, cluster } = setup();
    rejected(() => new Karpenter(stack, "karpenter", { cluster, values: revoked() as never }));
    expect(stack.node.tryFindChild("karpenter")).toBeUndefined();
  });
  // fresh tester 42 (CRASH): a list longer than any object can carry ran out of memory in the walk
  test("a list of ten million (or a Proxy claiming a billion) is PROPS_VALUE_TOO_LARGE on its path, at once", () => {
    const billion = new Proxy([], {
      get: (t: unknown[], k) => (k === "length" ? 1e9 : (t as unknown as Record<string | symbol, unknown>)[k]),
    });
    for (const [env, got] of [
      [new Array(1e7), "a list of 10,000,000 items"],
      [billion, "a list of 1,000,000,000 items"],
    ] as const) {
      const { stack, cluster } = setup();
      const e = rejected(() => new Karpenter(stack, "karpenter", { cluster, values: { controller: { env } } }));
      expect([e.code, e.field]).toEqual(["PROPS_VALUE_TOO_LARGE", "values.controller.env"]);
      expect(e.message).toContain(`at most 1,572,864 values in the props of one construct, got ${got}`);
      expect(stack.node.tryFindChild("karpenter")).toBeUndefined();
    }
  });
  test("look-alike: normal nested props, a token inside values, a construct reference pass", () => {
    const { stack, cluster } = setup();
    const helmProvider = new HelmProvider(stack, "helm2", { alias: "other" });
    const replicas = Token.asNumber(new TerraformVariable(stack, "replicas", { type: "number" }).value);
    const karpenter = new Karpenter(stack, "karpenter", {
      cluster,
      helmProvider,
      settings: { featureGates: { spotToSpotConsolidation: true } },
      controllerResources: { requests: { cpu: "500m", memory: "256Mi" } },
      tags: { team: "a" },
      nodeRole: { roleName: "karpenter-node-demo" },
      values: { replicas, controller: { env: [{ name: "LOG_LEVEL", value: "debug" }] } },
    });
    expect(karpenter.node.tryFindChild("controller")).toBeDefined();
  });
  test("look-alike: values deeper than 64 are still HELM_VALUES_TOO_DEEP, not walked to their end", () => {
    let deep: Record<string, unknown> = { leaf: revoked() };
    for (let i = 0; i < 200; i++) deep = { a: deep };
    expect(rejected(() => install({ values: deep })).code).toBe("HELM_VALUES_TOO_DEEP");
  });
});

describe("the building blocks a user creates directly", () => {
  test("KarpenterRelease: values and settings", () => {
    const { stack, cluster } = setup();
    expect(
      unreadable(
        () =>
          new KarpenterRelease(stack, "karpenter", {
            cluster,
            values: { controller: { env: [revoked()] } },
            settings: revoked() as never,
          }),
      ),
    ).toEqual(["values.controller.env[0]", "settings"]);
  });
  test("KarpenterCrdRelease: values", () => {
    const { stack } = setup();
    expect(unreadable(() => new KarpenterCrdRelease(stack, "karpenter", { values: revoked() } as never))).toEqual([
      "values",
    ]);
  });
  test("KarpenterNodeRole: tags and existingRole", () => {
    const { stack, cluster } = setup();
    expect(
      unreadable(
        () =>
          new KarpenterNodeRole(stack, "karpenter", {
            cluster,
            tags: revoked() as never,
            existingRole: throwingGetter("roleName") as never,
          }),
      ),
    ).toEqual(["tags", "existingRole.roleName"]);
  });
  test("KarpenterControllerRole: identity and additionalStatements", () => {
    const { stack, cluster } = setup();
    expect(
      unreadable(
        () =>
          new KarpenterControllerRole(stack, "karpenter", {
            cluster,
            nodeRole: { roleArn: "arn:aws:iam::123456789012:role/n" },
            identity: revoked() as never,
            additionalStatements: [revoked() as never],
          }),
      ),
    ).toEqual(["identity", "additionalStatements[0]"]);
  });
  test("InterruptionQueue: tags", () => {
    const { stack, cluster } = setup();
    expect(unreadable(() => new InterruptionQueue(stack, "karpenter", { cluster, tags: revoked() as never }))).toEqual([
      "tags",
    ]);
  });
});

describe("findUnreadable", () => {
  test("does not enter constructs, tokens or class instances, and walks a shared or cyclic object once", () => {
    const cls = new (class {
      get boom(): never {
        throw new Error("never read");
      }
    })();
    const shared: Record<string, unknown> = { x: 1 };
    shared.self = shared;
    expect(findUnreadable({ a: cls, b: [shared, shared], c: Token.asAny("x") })).toEqual([]);
  });
});
