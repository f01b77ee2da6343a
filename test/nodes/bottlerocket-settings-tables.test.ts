import { AT_BOOT, br, expectPassesQuietly, expectRefusedAtBoot } from "./bottlerocket-user-data";
import { rejection } from "./node-props";

/*
 * More of the Bottlerocket settings Karpenter hands on unchecked (fresh tester SILENT-7): the tables it passes on as
 * written (settings.kernel, network, container-registry, dns, updates: lib/nodes/user-data-rules.ts
 * BR_PASSTHROUGH_MODELS) and the [settings.kubernetes] values its struct types more widely than Bottlerocket's model
 * (BR_KUBERNETES_SHAPES: image-gc-*-threshold-percent, static-pods). early-boot-config PATCHes them to Bottlerocket's
 * API, which refuses what the model does not deserialize, and none of the user data is applied: each is refused at
 * synth, the field named, and a valid look-alike passes.
 */

describe("Bottlerocket settings tables Karpenter passes on as written: what the model refuses at boot", () => {
  test.each([
    // settings.kernel: Lockdown, KmodSetting, KmodKey
    [
      '[settings.kernel]\nlockdown = "strict"\n',
      'line 2: lockdown = "strict"',
      'settings.kernel.lockdown as one of "none", "integrity", "confidentiality", as written (Bottlerocket\'s Lockdown), got "strict"',
      "kernel/src/lib.rs:11-25",
    ],
    [
      '[settings.kernel.modules.sctp]\nallowed = "yes"\n',
      'line 2: allowed = "yes"',
      "settings.kernel.modules.sctp.allowed as true or false, got a string",
      "KmodSetting",
    ],
    [
      '[settings.kernel.modules."sctp.ko"]\nallowed = false\n',
      'line 1: [settings.kernel.modules."sctp.ko"]',
      'settings.kernel.modules.sctp.ko as a kernel module name of ASCII letters, digits, "-" and "_"',
      "KmodKey",
    ],
    [
      '[settings.kernel]\nhugepages = "2Mi"\n',
      'line 2: hugepages = "2Mi"',
      "settings.kernel.hugepages as a table, got a string",
      "KernelSettingsV1",
    ],
    // settings.network: ValidLinuxHostname, EtcHostsEntries, Url, Vec<SingleLineString>
    [
      '[settings.network]\nhostname = "Node1"\n',
      'line 2: hostname = "Node1"',
      'settings.network.hostname as a Linux hostname of 1 to 253 lower-case letters, digits, "." and "-"',
      "network/src/lib.rs:7-14",
    ],
    ['[settings.network]\nhostname = "-node"\n', 'line 2: hostname = "-node"', 'got "-node"', "ValidLinuxHostname"],
    [
      '[settings.network]\nhosts = [["not-an-ip", ["foo"]]]\n',
      'line 2: hosts = [["not-an-ip", ["foo"]]]',
      'settings.network.hosts[0][0] as an IPv4 or IPv6 address, such as "10.0.0.2" (Rust\'s IpAddr), got "not-an-ip"',
      "EtcHostsEntries",
    ],
    [
      '[settings.network]\nhosts = [["10.0.0.2", ["DB"]]]\n',
      'line 2: hosts = [["10.0.0.2", ["DB"]]]',
      "settings.network.hosts[0][1][0] as a Linux hostname",
      "EtcHostsEntries",
    ],
    [
      '[settings.network]\nhosts = [["10.0.0.2", "db"]]\n',
      'line 2: hosts = [["10.0.0.2", "db"]]',
      "settings.network.hosts[0][1] as an array, each a Linux hostname",
      "EtcHostsEntries",
    ],
    [
      '[settings.network]\nhosts = [["10.0.0.2"]]\n',
      'line 2: hosts = [["10.0.0.2"]]',
      'settings.network.hosts[0] as an array [address, [hostnames]], such as ["10.0.0.2", ["db.internal"]], got an array of 1',
      "EtcHostsEntries",
    ],
    [
      '[settings.network]\nno-proxy = "localhost"\n',
      'line 2: no-proxy = "localhost"',
      "settings.network.no-proxy as an array, each a string on one line (Bottlerocket's SingleLineString), got a string",
      "no-proxy: Vec<SingleLineString>",
    ],
    [
      '[settings.network]\nhttps-proxy = "not a url"\n',
      'line 2: https-proxy = "not a url"',
      "settings.network.https-proxy as a URL (Bottlerocket's Url",
      "https-proxy: Url",
    ],
    // settings.container-registry: mirrors an array or a table, endpoint Vec<Url>, auth ValidBase64
    [
      '[settings.container-registry]\nmirrors = "x"\n',
      'line 2: mirrors = "x"',
      "settings.container-registry.mirrors as an array or a table, got a string",
      "de.rs:8-48",
    ],
    [
      '[[settings.container-registry.mirrors]]\nregistry = "docker.io"\nendpoint = "https://m.example.com"\n',
      'line 3: endpoint = "https://m.example.com"',
      "settings.container-registry.mirrors[0].endpoint as an array, each a URL",
      "RegistryMirrorV1",
    ],
    [
      '[settings.container-registry.mirrors]\n"docker.io" = "https://m.example.com"\n',
      'line 2: "docker.io" = "https://m.example.com"',
      "settings.container-registry.mirrors.docker.io as an array, each a URL",
      "deserialize_mirrors",
    ],
    [
      '[[settings.container-registry.mirrors]]\nregistry = "docker.io"\nendpoint = ["https://m.example.com"]\ncapabilities = ["fetch"]\n',
      'line 4: capabilities = ["fetch"]',
      'settings.container-registry.mirrors[0].capabilities[0] as one of "pull", "resolve", "push"',
      "RegistryMirrorV1",
    ],
    [
      '[[settings.container-registry.credentials]]\nregistry = "r.example.com"\nauth = "user:pass"\n',
      'line 3: auth = "user:pass"',
      'settings.container-registry.credentials[0].auth as base64 text on one line with its "=" padding (Bottlerocket\'s ValidBase64',
      "RegistryCredentialV1",
    ],
    [
      '[settings.container-registry]\ncredentials = { registry = "r.example.com" }\n',
      'line 2: credentials = { registry = "r.example.com" }',
      "settings.container-registry.credentials as an array, each a table (registry, username, password, auth, identitytoken), got a table",
      "RegistryCredentialV1",
    ],
    // settings.dns, settings.updates
    [
      '[settings.dns]\nname-servers = ["dns.example.com"]\n',
      'line 2: name-servers = ["dns.example.com"]',
      "settings.dns.name-servers[0] as an IPv4 or IPv6 address",
      "dns/src/lib.rs:8-12",
    ],
    [
      '[settings.dns]\nsearch-list = "example.com"\n',
      'line 2: search-list = "example.com"',
      "settings.dns.search-list as an array, each a Linux hostname",
      "DnsSettingsV1",
    ],
    [
      '[settings.updates]\nignore-waves = "true"\n',
      'line 2: ignore-waves = "true"',
      "settings.updates.ignore-waves as true or false, got a string",
      "updates/src/lib.rs:10-18",
    ],
    [
      "[settings.updates]\nseed = -1\n",
      "line 2: seed = -1",
      "settings.updates.seed as an integer from 0 to 4294967295 (u32), got -1, which is out of range",
      "UpdatesSettingsV1",
    ],
  ])("%j is refused", (userData, value, problem, source) => {
    expectRefusedAtBoot(userData, value, problem, source, "Karpenter passes settings.");
  });

  test.each([
    '[settings.kernel]\nlockdown = "integrity"\n',
    "[settings.kernel.modules.sctp]\nallowed = false\n[settings.kernel.modules.nf_conntrack]\nautoload = true\n",
    '[settings.kernel.hugepages.static."2Mi"]\ncount = "512"\n',
    '[settings.network]\nhostname = "node1"\n',
    '[settings.network]\nhostname = "node-1.example.com"\n',
    '[settings.network]\nhosts = [["10.0.0.2", ["db.internal", "db"]], ["::1", ["localhost6"]]]\n',
    '[settings.network]\nno-proxy = ["localhost", ".cluster.local", "10.0.0.0/8"]\nhttps-proxy = "http://proxy.example.com:3128"\n',
    '[settings.container-registry]\nmirrors = [{ registry = "docker.io", endpoint = ["https://m.example.com"] }]\n',
    '[[settings.container-registry.mirrors]]\nregistry = "docker.io"\nendpoint = ["https://m.example.com"]\ncapabilities = ["pull", "resolve"]\n',
    '[settings.container-registry.mirrors]\n"docker.io" = ["https://m.example.com"]\n',
    '[[settings.container-registry.credentials]]\nregistry = "r.example.com"\nauth = "dXNlcjpwYXNz"\n',
    '[[settings.container-registry.credentials]]\nregistry = "r.example.com"\nusername = "user"\npassword = "pass"\n',
    '[settings.dns]\nname-servers = ["10.0.0.2", "fd00::2"]\nsearch-list = ["example.com"]\n',
    '[settings.updates]\nignore-waves = true\nseed = 1234\nmetadata-base-url = "https://updates.example.com/metadata"\n',
  ])("%j passes", (userData) => {
    expectPassesQuietly(userData);
  });
});

describe("[settings.kubernetes] values Karpenter keeps and Bottlerocket's model refuses at boot", () => {
  test.each([
    // IntegerPercent: a whole number from 0 to 100 (Karpenter types it *string)
    [
      '[settings.kubernetes]\nimage-gc-high-threshold-percent = "abc"\n',
      'line 2: image-gc-high-threshold-percent = "abc"',
      'settings.kubernetes.image-gc-high-threshold-percent as a whole number from 0 to 100, such as "85" (Bottlerocket\'s IntegerPercent: a number or a string of one), got "abc"',
    ],
    [
      '[settings.kubernetes]\nimage-gc-low-threshold-percent = "80%"\n',
      'line 2: image-gc-low-threshold-percent = "80%"',
      "settings.kubernetes.image-gc-low-threshold-percent as a whole number from 0 to 100",
    ],
    [
      '[settings.kubernetes]\nimage-gc-high-threshold-percent = "101"\n',
      'line 2: image-gc-high-threshold-percent = "101"',
      'got "101"',
    ],
    // StaticPod.manifest: ValidBase64; the pod's name an Identifier
    [
      '[settings.kubernetes.static-pods.mypod]\nenabled = true\nmanifest = "not base64!"\n',
      'line 3: manifest = "not base64!"',
      'settings.kubernetes.static-pods.mypod.manifest as base64 text on one line with its "=" padding (Bottlerocket\'s ValidBase64',
    ],
    // go-toml folds the field name, and Karpenter writes it back as "manifest"
    [
      '[settings.kubernetes.static-pods.mypod]\nEnabled = true\nManifest = "not base64!"\n',
      'line 3: Manifest = "not base64!"',
      "settings.kubernetes.static-pods.mypod.Manifest as base64 text on one line",
    ],
    [
      '[settings.kubernetes.static-pods.my_pod]\nenabled = true\nmanifest = "YWJj"\n',
      "line 1: [settings.kubernetes.static-pods.my_pod]",
      'settings.kubernetes.static-pods.my_pod as a name of ASCII letters, digits and "-", at most 76 characters (Bottlerocket\'s Identifier), got "my_pod"',
    ],
  ])("%j is refused", (userData, value, problem) => {
    expectRefusedAtBoot(userData, value, problem, "kubernetes/src/lib.rs:24-27", "Karpenter takes this value");
  });

  test("a percentage out of range is the model's refusal alone, not also the kubelet's", () => {
    const e = rejection(
      "EC2NodeClass",
      br('[settings.kubernetes]\nimage-gc-high-threshold-percent = "101"\n'),
      "1.15.0",
    );
    expect(e.message).toContain(AT_BOOT);
    expect(e.message).not.toContain("the kubelet's imageGCHighThresholdPercent");
  });

  test("a value Karpenter's decode refuses is reported once, in Karpenter's words", () => {
    const e = rejection("EC2NodeClass", br("[settings.kubernetes]\nimage-gc-high-threshold-percent = 85\n"), "1.15.0");
    expect(e.message).toContain("image-gc-high-threshold-percent as a string, got an integer");
    expect(e.message).not.toContain(AT_BOOT);
  });

  test.each([
    '[settings.kubernetes]\nimage-gc-high-threshold-percent = "85"\nimage-gc-low-threshold-percent = "80"\n',
    '[settings.kubernetes]\nimage-gc-high-threshold-percent = "100"\nimage-gc-low-threshold-percent = "0"\n',
    '[settings.kubernetes.static-pods.my-pod]\nenabled = true\nmanifest = "YXBpVmVyc2lvbjogdjEK"\n',
    // go-toml folds the field name; Karpenter writes it back as "manifest"
    '[settings.kubernetes.static-pods.my-pod]\nEnabled = true\nManifest = "YXBpVmVyc2lvbjogdjEK"\n',
  ])("%j passes", (userData) => {
    expectPassesQuietly(userData);
  });

  test("a percentage the class's kubelet writes over never reaches the node, and is not judged", () => {
    expectPassesQuietly('[settings.kubernetes]\nimage-gc-high-threshold-percent = "abc"\n', {
      imageGCHighThresholdPercent: 90,
      imageGCLowThresholdPercent: 80,
    });
  });
});
