import { synthWarnings } from "../helpers";
import { br, expectPassesQuietly, expectRefusedAtBoot } from "./bottlerocket-user-data";
import { build, rejection } from "./node-props";
import { EVERY_K8S_SETTINGS } from "../../lib/versions/bottlerocket-settings-names";

/*
 * `[settings.<name>]` tables no aws-k8s variant has: Karpenter passes them on as written, and Bottlerocket's settings
 * model (deny_unknown_fields) refuses them at boot (fresh tester 32: E5, E31, E33; lib/nodes/user-data-rules.ts
 * bottlerocketSettingsNameFindings, the names in lib/versions/bottlerocket-settings-names.ts).
 */

const userDataWarnings = (userData: string) =>
  synthWarnings(build("EC2NodeClass", br(userData), "1.15.0")).filter((w) => w.includes("userData"));

describe("Bottlerocket settings tables no aws-k8s variant has", () => {
  test("an unknown table is refused at boot, naming the table and the names allowed (E5)", () => {
    expectRefusedAtBoot(
      "[settings.foo]\nbar = 1\n",
      "line 1: [settings.foo]",
      'no aws-k8s variant has a "foo" setting',
      "got [settings.foo]",
      "user data for the Bottlerocket AMI family",
      "deny_unknown_fields",
      "host-containers, bootstrap-commands",
      "Fix the name, or remove the table",
    );
  });
  test("a typo of host-containers is refused with a did-you-mean (E31)", () => {
    expectRefusedAtBoot(
      "[settings.host-container.admin]\nenabled = true\n",
      "line 1: [settings.host-container.admin]",
      "got [settings.host-container]",
      "Did you mean [settings.host-containers]?",
    );
  });
  test("a typo of bootstrap-commands is refused with a did-you-mean (E33)", () => {
    expectRefusedAtBoot(
      '[settings.bootstrap-command.x]\ncommands = [["echo"]]\nmode = "once"\n',
      "line 1: [settings.bootstrap-command.x]",
      "got [settings.bootstrap-command]",
      "Did you mean [settings.bootstrap-commands]?",
    );
  });
  test("the ECS agent's settings are refused on a Kubernetes node", () => {
    expectRefusedAtBoot(
      '[settings.ecs]\ncluster = "prod"\n',
      "line 1: [settings.ecs]",
      "settings.ecs is a setting of the aws-ecs variants",
      "no aws-k8s variant has it",
    );
  });
  test("names are case-sensitive: a case-folded Kubernetes reaches Bottlerocket as written too", () => {
    expectRefusedAtBoot(
      "[settings.Kubernetes]\nmax-pods = 7\n",
      "line 1: [settings.Kubernetes]",
      "Did you mean [settings.kubernetes]?",
    );
  });
  test("a dotted key and several unknown tables: each named, all in one error", () => {
    const e = rejection(
      "EC2NodeClass",
      br('[settings]\nmotd = "hi"\nfoo.bar = 1\n[settings.dnss]\nname-servers = []\n'),
      "1.15.0",
    );
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.problems).toHaveLength(1);
    expect(e.value).toBe("line 3: foo.bar = 1");
    expect(e.message).toContain("got [settings.foo]");
    expect(e.message).toContain("Also line 4: ");
    expect(e.message).toContain("Did you mean [settings.dns]?");
  });
  test("look-alikes every aws-k8s variant has pass quietly", () => {
    for (const u of [
      "[settings.host-containers.admin]\nenabled = true\n",
      '[settings.bootstrap-commands.x]\ncommands = [["apiclient", "set", "motd=hi"]]\nmode = "once"\n',
      '[settings]\nmotd = "hello"\n',
      '[settings.kubernetes]\nimage-gc-high-threshold-percent = "85"\n',
      '[settings.aws]\nregion = "eu-west-1"\n',
      '[settings.kernel.sysctl]\n"net.core.somaxconn" = "1024"\n',
      "[settings.container-runtime]\nmax-concurrent-downloads = 3\n",
      "[settings.autoscaling]\nshould-wait = false\n",
      "[settings.oci-defaults.resource-limits.max-open-files]\nhard-limit = 65536\nsoft-limit = 65536\n",
      '[Settings.kubernetes]\nimage-gc-high-threshold-percent = "85"\n',
    ])
      expectPassesQuietly(u);
  });
  test("every table of an aws-k8s variant is taken by name", () => {
    // motd is a string at the top of [settings], not a table (MotdV1(Option<String>))
    for (const name of EVERY_K8S_SETTINGS)
      expect(() =>
        build("EC2NodeClass", br(name === "motd" ? '[settings]\nmotd = "hi"\n' : `[settings.${name}]\n`), "1.15.0"),
      ).not.toThrow();
    expect(() => build("EC2NodeClass", br("[settings.motd]\n"), "1.15.0")).toThrow("settings.motd as a string");
  });
});

describe("Bottlerocket settings tables only some aws-k8s variants have", () => {
  test("an NVIDIA-only table is a warning naming the variants, not an error", () => {
    const u = "[settings.kubelet-device-plugins.nvidia]\npass-device-specs = true\n";
    const w = userDataWarnings(u);
    expect(w).toHaveLength(1);
    expect(w[0]).toContain("line 1: settings.kubelet-device-plugins is a setting of the aws-k8s-*-nvidia variants");
    expect(w[0]).toContain("Bottlerocket itself refuses the settings at boot");
    expect(
      userDataWarnings("[settings.nvidia-container-runtime]\nvisible-devices-as-volume-mounts = true\n"),
    ).toHaveLength(1);
  });
  test("a table of newer Kubernetes variants only is a warning", () => {
    const w = userDataWarnings("[settings.image-verifier-plugins]\nenabled = true\n");
    expect(w).toHaveLength(1);
    expect(w[0]).toContain("Kubernetes 1.33 and later");
  });
});

describe("a top-level key near settings (E32)", () => {
  test("[setting.kubernetes] suggests [settings.kubernetes]", () => {
    const e = rejection("EC2NodeClass", br("[setting.kubernetes]\nmax-pods = 110\n"), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain("Did you mean [settings.kubernetes]?");
    expect(e.message).not.toContain("[settings.setting]");
  });
  test("a top-level table other than settings still suggests moving it under settings", () => {
    const e = rejection("EC2NodeClass", br("[kubernetes]\nmax-pods = 110\n"), "1.15.0");
    expect(e.message).toContain("Did you mean [settings.kubernetes]?");
  });
});
