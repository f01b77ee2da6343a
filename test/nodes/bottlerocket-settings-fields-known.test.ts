import { synthWarnings } from "../helpers";
import { AT_BOOT, expectPassesQuietly, expectRefusedAtBoot } from "./bottlerocket-user-data";
import { build, rejection } from "./node-props";
import {
  BOTTLEROCKET_SETTINGS_SINCE,
  bottlerocketSettingInRelease,
  EVERY_K8S_SETTINGS,
} from "../../lib/versions/bottlerocket-settings-names";

/*
 * Bottlerocket settings its model refuses by name (anticipated fresh-tester findings): a field no version of a closed
 * struct of the settings model has (lib/nodes/user-data-rules.ts BR_PASSTHROUGH_MODELS `closed`, unknownBrFields; the
 * bootstrap containers' fields), and a top-level table newer than the Bottlerocket release the class's alias pins
 * (lib/versions/bottlerocket-settings-names.ts BOTTLEROCKET_SETTINGS_SINCE). #[model] denies unknown fields, so
 * early-boot-config's PATCH fails and none of the user data is applied: each is refused at synth, the field named with
 * a did-you-mean, and a valid look-alike passes quietly.
 */

describe("Bottlerocket settings: an unknown field of a closed model struct is refused at boot", () => {
  test.each([
    [
      "host container: enable for enabled",
      "[settings.host-containers.admin]\nenable = true\n",
      "line 2: enable = true",
      'settings.host-containers.admin.enable as a field this table has (source, enabled, superpowered, user-data, command; Bottlerocket\'s settings model denies unknown fields, case-sensitively, bottlerocket@f36b20a9 sources/models/model-derive/src/lib.rs:108-118, #[serde(deny_unknown_fields, rename_all = "kebab-case")]), got an unknown field "enable" (did you mean "enabled"?)',
      "HostContainer",
    ],
    [
      "kernel: sysctls for sysctl",
      "[settings.kernel]\nsysctls = {}\n",
      "line 2: sysctls = {}",
      "settings.kernel.sysctls as a field this table has (lockdown, modules, sysctl, hugepages, drivers;",
      '(did you mean "sysctl"?)',
    ],
    [
      "kernel module: autolaod for autoload",
      "[settings.kernel.modules.sctp]\nautolaod = true\n",
      "line 2: autolaod = true",
      "settings.kernel.modules.sctp.autolaod as a field this table has (allowed, autoload;",
      '(did you mean "autoload"?)',
    ],
    [
      "network: host-name for hostname",
      '[settings.network]\nhost-name = "x"\n',
      'line 2: host-name = "x"',
      "settings.network.host-name as a field this table has (hostname, hosts, https-proxy, no-proxy, disable-ipv6;",
      '(did you mean "hostname"?)',
    ],
    [
      "network: http-proxy, which Bottlerocket has not",
      '[settings.network]\nhttp-proxy = "http://proxy:3128"\n',
      'line 2: http-proxy = "http://proxy:3128"',
      "settings.network.http-proxy as a field this table has",
      '(did you mean "https-proxy"?)',
    ],
    [
      "registry mirror: endpoints for endpoint",
      '[[settings.container-registry.mirrors]]\nregistry = "docker.io"\nendpoints = ["https://mirror.example.com"]\n',
      'line 3: endpoints = ["https://mirror.example.com"]',
      "settings.container-registry.mirrors[0].endpoints as a field this table has (registry, endpoint, capabilities;",
      '(did you mean "endpoint"?)',
    ],
    [
      "registry credential: pasword for password",
      '[[settings.container-registry.credentials]]\nregistry = "docker.io"\npasword = "x"\n',
      'line 3: pasword = "x"',
      "settings.container-registry.credentials[0].pasword as a field this table has (registry, username, password, auth, identitytoken;",
      '(did you mean "password"?)',
    ],
    [
      "container-registry: mirror for mirrors",
      "[settings.container-registry]\nmirror = []\n",
      "line 2: mirror = []",
      "settings.container-registry.mirror as a field this table has (mirrors, credentials, creds;",
      '(did you mean "mirrors"?)',
    ],
    [
      "ntp: time-server for time-servers",
      '[settings.ntp]\ntime-server = ["169.254.169.123"]\n',
      'line 2: time-server = ["169.254.169.123"]',
      "settings.ntp.time-server as a field this table has (time-servers, options, logging, refclocks, allow, cmdallow, bindcmdaddress;",
      '(did you mean "time-servers"?)',
    ],
    [
      "dns: nameservers for name-servers",
      '[settings.dns]\nnameservers = ["10.0.0.2"]\n',
      'line 2: nameservers = ["10.0.0.2"]',
      "settings.dns.nameservers as a field this table has (name-servers, search-list;",
      '(did you mean "name-servers"?)',
    ],
    [
      "updates: ignore-wave for ignore-waves",
      "[settings.updates]\nignore-wave = true\n",
      "line 2: ignore-wave = true",
      "settings.updates.ignore-wave as a field this table has (metadata-base-url, targets-base-url, seed, version-lock, ignore-waves;",
      '(did you mean "ignore-waves"?)',
    ],
    [
      "names are case-sensitive: Enabled",
      "[settings.host-containers.admin]\nEnabled = true\n",
      "line 2: Enabled = true",
      'got an unknown field "Enabled" (did you mean "enabled"?)',
      "case-sensitively",
    ],
    [
      "a field no name is near: no did-you-mean",
      '[settings.dns]\nresolver = "x"\n',
      'line 2: resolver = "x"',
      'got an unknown field "resolver": Karpenter passes settings.dns on as written',
      "DnsSettingsV1",
    ],
  ])("%s", (_name, userData, value, ...parts) => {
    expectRefusedAtBoot(userData, value, ...parts, "user data for the Bottlerocket AMI family");
  });

  test("a bootstrap container's essental is refused with a did-you-mean", () => {
    expectRefusedAtBoot(
      '[settings.bootstrap-containers.setup]\nsource = "public.ecr.aws/my-org/setup:1.0"\nessental = true\n',
      "line 3: essental = true",
      "settings.bootstrap-containers.setup.essental as a field this table has (source, mode, user-data, essential, command;",
      '(did you mean "essential"?)',
      "BootstrapContainer",
    );
  });

  test("two unknown fields in one table: both named, in one error", () => {
    const e = rejection(
      "EC2NodeClass",
      {
        amiSelectorTerms: [{ alias: "bottlerocket@latest" }],
        userData: '[settings.host-containers.admin]\nenable = true\nsuperpowerd = true\nsource = "x.io/a:1"\n',
      },
      "1.15.0",
    );
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain('(did you mean "enabled"?)');
    expect(e.message).toContain('(did you mean "superpowered"?)');
    expect(e.message).toContain(AT_BOOT);
  });
});

describe("Bottlerocket settings: every field some model version has passes quietly", () => {
  test.each([
    [
      "host container, every field",
      '[settings.host-containers.admin]\nsource = "public.ecr.aws/bottlerocket/bottlerocket-admin:v0.11.0"\nenabled = true\nsuperpowered = true\nuser-data = "Zm9vCg=="\ncommand = ["sh", "-c", "true"]\n',
    ],
    [
      "kernel, every field (hugepages and drivers, newer, not judged inside)",
      '[settings.kernel]\nlockdown = "integrity"\n[settings.kernel.sysctl]\n"net.ipv4.ip_forward" = "1"\n[settings.kernel.modules.sctp]\nallowed = false\nautoload = false\n[settings.kernel.hugepages.static]\nessential = true\n[settings.kernel.drivers.nvidia]\nbranch = "lts"\n',
    ],
    [
      "network, every field",
      '[settings.network]\nhostname = "node-1"\nhosts = [["10.0.0.2", ["db.internal"]]]\nhttps-proxy = "http://proxy:3128"\nno-proxy = ["localhost"]\ndisable-ipv6 = ["eth0"]\n',
    ],
    [
      "container-registry: mirrors as tables, capabilities, credentials and creds",
      '[[settings.container-registry.mirrors]]\nregistry = "docker.io"\nendpoint = ["https://mirror.example.com"]\ncapabilities = ["pull", "resolve"]\n[[settings.container-registry.credentials]]\nregistry = "docker.io"\nusername = "u"\npassword = "p"\nauth = "dTpw"\nidentitytoken = "t"\n',
    ],
    [
      "container-registry: mirrors as the old table of registry to endpoints (not a struct)",
      '[settings.container-registry.mirrors]\n"docker.io" = ["https://mirror.example.com"]\n',
    ],
    [
      "container-registry: the creds alias",
      '[[settings.container-registry.creds]]\nregistry = "docker.io"\nauth = "dTpw"\n',
    ],
    [
      "ntp, every field (a list of URLs, options, logging, and the newer refclocks, allow, cmdallow, bindcmdaddress)",
      '[settings.ntp]\ntime-servers = ["169.254.169.123"]\noptions = ["minpoll", "1"]\nlogging = ["tracking"]\nrefclocks = []\nallow = ["10.0.0.0/8"]\ncmdallow = ["127.0.0.1"]\nbindcmdaddress = ["/run/chrony/chronyd.sock"]\n',
    ],
    [
      "ntp: named servers (their fields not judged)",
      '[settings.ntp.time-servers.link-local]\naddress = "169.254.169.123"\ndirective = "server"\noptions = ["iburst"]\n',
    ],
    ["dns, every field", '[settings.dns]\nname-servers = ["10.0.0.2"]\nsearch-list = ["example.com"]\n'],
    [
      "updates, every field (version-lock not judged)",
      '[settings.updates]\nmetadata-base-url = "https://updates.example.com/metadata"\ntargets-base-url = "https://updates.example.com/targets"\nseed = 100\nversion-lock = "latest"\nignore-waves = true\n',
    ],
    [
      "bootstrap container, every field",
      '[settings.bootstrap-containers.setup]\nsource = "public.ecr.aws/my-org/setup:1.0"\nmode = "once"\nuser-data = "Zm9vCg=="\nessential = true\ncommand = ["setup"]\n',
    ],
  ])("%s", (_name, userData) => {
    expectPassesQuietly(userData);
  });
});

/** EC2NodeClass props of a Bottlerocket alias `alias` with the given user data. */
const pinned = (alias: string, userData: string) => ({ amiSelectorTerms: [{ alias }], userData });
const userDataWarnings = (alias: string, userData: string) =>
  synthWarnings(build("EC2NodeClass", pinned(alias, userData), "1.15.0")).filter((w) => w.includes("userData"));

describe("Bottlerocket settings tables newer than the pinned Bottlerocket release", () => {
  const commands = '[settings.bootstrap-commands.setup]\ncommands = [["apiclient", "set", "motd=hi"]]\nmode = "once"\n';

  test("bootstrap-commands on bottlerocket@v1.20.3 is refused: it came in v1.22.0", () => {
    const e = rejection("EC2NodeClass", pinned("bottlerocket@v1.20.3", commands), "1.15.0");
    expect(e.problems).toHaveLength(1);
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.field).toBe("userData");
    expect(e.value).toBe("line 1: [settings.bootstrap-commands.setup]");
    for (const part of [
      "a settings table Bottlerocket v1.20.3 has, got [settings.bootstrap-commands]",
      "user data for the Bottlerocket AMI family",
      AT_BOOT,
      "settings.bootstrap-commands came in Bottlerocket v1.22.0",
      "the class pins bottlerocket@v1.20.3",
      "deny_unknown_fields",
      "early-boot-config/src/main.rs:159-175",
      "Pin bottlerocket@v1.22.0 or later",
    ])
      expect(e.message).toContain(part);
  });

  test.each([["bottlerocket@v1.22.0"], ["bottlerocket@v1.40.0"], ["bottlerocket@latest"]])(
    "bootstrap-commands on %s passes quietly",
    (alias) => {
      expect(() => build("EC2NodeClass", pinned(alias, commands), "1.15.0")).not.toThrow();
      expect(userDataWarnings(alias, commands)).toEqual([]);
    },
  );

  test("AMIs selected by id are not judged for the release", () => {
    const props = {
      amiFamily: "Bottlerocket" as const,
      amiSelectorTerms: [{ id: "ami-0123456789abcdef0" }],
      userData: commands,
    };
    expect(() => build("EC2NodeClass", props, "1.15.0")).not.toThrow();
  });

  test("dns on bottlerocket@v1.9.2 is refused (v1.10.0), and on v1.10.0 passes", () => {
    const dns = '[settings.dns]\nname-servers = ["10.0.0.2"]\n';
    const e = rejection("EC2NodeClass", pinned("bottlerocket@v1.9.2", dns), "1.15.0");
    expect(e.message).toContain("settings.dns came in Bottlerocket v1.10.0");
    expect(() => build("EC2NodeClass", pinned("bottlerocket@v1.10.0", dns), "1.15.0")).not.toThrow();
  });

  test("a setting newer than every release read is refused on a release read (v1.26.0)", () => {
    const dra = "[settings.kubelet-dra-drivers.nvidia]\nenabled = true\n";
    const e = rejection("EC2NodeClass", pinned("bottlerocket@v1.26.0", dra), "1.15.0");
    expect(e.message).toContain("settings.kubelet-dra-drivers is in no aws-k8s variant up to Bottlerocket v1.26.1");
    expect(e.message).toContain(AT_BOOT);
  });

  test("a setting whose first release is not established warns on a later pinned release", () => {
    const dra = "[settings.kubelet-dra-drivers.nvidia]\nenabled = true\n";
    const w = userDataWarnings("bottlerocket@v1.40.0", dra);
    expect(w).toHaveLength(1);
    expect(w[0]).toContain("Its first release is also not established here");
    expect(w[0]).toContain("if bottlerocket@v1.40.0 predates it");
    // unpinned: only the variant warning
    expect(userDataWarnings("bottlerocket@latest", dra)[0]).not.toContain("first release");
  });

  test("every setting of every aws-k8s variant has a first release; the v1 ones pass on v1.0.0", () => {
    for (const name of EVERY_K8S_SETTINGS) expect(BOTTLEROCKET_SETTINGS_SINCE[name]).toMatch(/^v1\.\d+\.\d+$/);
    expect(bottlerocketSettingInRelease("kubernetes", "v1.0.0").has).toBe("has");
    expect(bottlerocketSettingInRelease("bootstrap-commands", "v1.21.1").has).toBe("older");
    expect(bottlerocketSettingInRelease("bootstrap-commands", "v1.22.0").has).toBe("has");
    expect(bottlerocketSettingInRelease("boot", "v1.10.0").has).toBe("has");
  });
});
