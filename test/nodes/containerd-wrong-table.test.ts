import { synthWarnings } from "../helpers";
import { build } from "./node-props";

/*
 * A key a NodeConfig's containerd config writes in a CRI plugin table that does not have it, while the table's parent,
 * a sibling or a child does (fresh tester SILENT-8): containerd ignores it, so it is warned about with the table it
 * belongs to, from the generated tables (lib/versions/data/containerd-config-fields.json).
 */

const nodeConfig = (toml: string) => ({
  amiSelectorTerms: [{ alias: "al2023@latest" }],
  userData: `apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  containerd:\n    config: ${JSON.stringify(toml)}\n`,
});
const warnings = (toml: string) => synthWarnings(build("EC2NodeClass", nodeConfig(toml), "1.15.0")).join("\n");
const CRI = 'plugins."io.containerd.grpc.v1.cri"';

describe("a containerd key in the wrong CRI table is warned about, naming the table it belongs to", () => {
  test.each([
    [
      `[${CRI}.containerd]\nmax_concurrent_downloads = "3"`,
      `${CRI}.containerd.max_concurrent_downloads`,
      `max_concurrent_downloads belongs to [${CRI}]`,
    ],
    [`[${CRI}.registry]\nsandbox_image = "x"`, `${CRI}.registry.sandbox_image`, `sandbox_image belongs to [${CRI}]`],
    [`[${CRI}]\nsnapshotter = "overlayfs"`, `${CRI}.snapshotter`, `snapshotter belongs to [${CRI}.containerd]`],
    [
      `[${CRI}.containerd.runtimes.runc]\nSystemdCgroup = true`,
      `${CRI}.containerd.runtimes.runc.SystemdCgroup`,
      `SystemdCgroup belongs to [${CRI}.containerd.runtimes.runc.options]`,
    ],
    [
      'version = 3\n[plugins."io.containerd.cri.v1.runtime"]\nmax_concurrent_downloads = 3',
      'plugins."io.containerd.cri.v1.runtime".max_concurrent_downloads',
      'max_concurrent_downloads belongs to [plugins."io.containerd.cri.v1.images"] (containerd 2.2',
    ],
  ])("%s", (toml, path, belongs) => {
    const w = warnings(toml);
    expect(w).toContain(`spec.containerd.config has ${path}, a key its table does not have`);
    expect(w).toContain(belongs);
    expect(w).toContain("Ignoring unknown key in TOML for plugin");
    expect(w).toContain("user data for the AL2023 AMI family");
  });

  test.each([
    [`[${CRI}]\nmax_concurrent_downloads = 3`],
    [`[${CRI}]\nsandbox_image = "x"`],
    [`[${CRI}.containerd]\nsnapshotter = "overlayfs"`],
    [`[${CRI}.containerd.runtimes.runc.options]\nSystemdCgroup = true`],
    ['version = 3\n[plugins."io.containerd.cri.v1.images"]\nmax_concurrent_downloads = 3'],
    // an unknown key no nearby table has, and a runtime named by the user: not judged
    [`[${CRI}]\nfoo_bar = 1`],
    [`[${CRI}.containerd.runtimes.kata]\nruntime_type = "io.containerd.kata.v2"`],
  ])("valid look-alike %s passes without the warning", (toml) => {
    expect(warnings(toml)).not.toContain("a key its table does not have");
  });
});
