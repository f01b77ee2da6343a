import { AT_BOOT, br, expectPassesQuietly } from "./bottlerocket-user-data";
import { rejection } from "./node-props";

/*
 * Bottlerocket settings tables Karpenter passes on as written (lib/nodes/user-data-rules.ts BR_PASSTHROUGH_MODELS):
 * its struct decodes only settings.kubernetes and settings.bootstrap-commands, so settings.host-containers,
 * settings.kernel and settings.ntp reach Bottlerocket's settings API unchecked, and early-boot-config fails the boot
 * when the model does not deserialize them (bottlerocket-settings-sdk settings-extensions host-containers, kernel,
 * ntp). A value of another type is refused at synth, the field named; the valid look-alikes pass.
 */

describe("Bottlerocket settings tables Karpenter passes on: what the settings model refuses at boot", () => {
  test.each([
    // C21: HostContainer.enabled is a bool
    [
      '[settings.host-containers.admin]\nenabled = "yes"\n',
      'line 2: enabled = "yes"',
      "settings.host-containers.admin.enabled as true or false, got a string",
      "host-containers/src/lib.rs:10-12, 35-42",
    ],
    [
      "[settings.host-containers.admin]\nsuperpowered = 1\n",
      "line 2: superpowered = 1",
      "settings.host-containers.admin.superpowered as true or false, got an integer",
      "host-containers/src/lib.rs",
    ],
    [
      '[settings.host-containers.admin]\nsource = "how are you"\n',
      'line 2: source = "how are you"',
      'settings.host-containers.admin.source as an image reference Bottlerocket reads as a URL (Bottlerocket\'s Url), such as "public.ecr.aws/my-org/admin:1.0", got "how are you"',
      "HostContainer",
    ],
    [
      '[settings.host-containers.admin]\nuser-data = "not base64!"\n',
      'line 2: user-data = "not base64!"',
      'settings.host-containers.admin.user-data as base64 text on one line with its "=" padding (Bottlerocket\'s ValidBase64',
      "HostContainer",
    ],
    [
      '[settings.host-containers.admin]\ncommand = "sh"\n',
      'line 2: command = "sh"',
      "settings.host-containers.admin.command as an array of strings, got a string",
      "HostContainer",
    ],
    [
      "[settings.host-containers.my_admin]\nenabled = true\n",
      "line 1: [settings.host-containers.my_admin]",
      `settings.host-containers.my_admin as a name of ASCII letters, digits and "-", at most 76 characters (Bottlerocket's Identifier), got "my_admin"`,
      "HostContainer",
    ],
    [
      'settings.host-containers = "admin"\n',
      'line 1: settings.host-containers = "admin"',
      "settings.host-containers as a table, got a string",
      "HostContainer",
    ],
    // C22: sysctl values are strings
    [
      '[settings.kernel.sysctl]\n"net.core.somaxconn" = 1024\n',
      'line 2: "net.core.somaxconn" = 1024',
      "settings.kernel.sysctl.net.core.somaxconn as a string (write it in quotes, even a number), got an integer",
      "kernel/src/lib.rs:11-25, KernelSettingsV1 (lockdown: Lockdown, modules: HashMap<KmodKey, KmodSetting>, sysctl: HashMap<SysctlKey, String>)",
    ],
    [
      '[settings.kernel.sysctl]\n"/proc/sys/vm/swappiness" = "10"\n',
      'line 2: "/proc/sys/vm/swappiness" = "10"',
      "settings.kernel.sysctl./proc/sys/vm/swappiness as a sysctl key of 1 to 128 ASCII letters",
      "Bottlerocket's SysctlKey",
    ],
    [
      '[settings.kernel]\nsysctl = ["vm.swappiness=10"]\n',
      'line 2: sysctl = ["vm.swappiness=10"]',
      "settings.kernel.sysctl as a table, got an array",
      "kernel/src/lib.rs:11-25",
    ],
    // C23: time-servers is a list, not a string
    [
      '[settings.ntp]\ntime-servers = "169.254.169.123"\n',
      'line 2: time-servers = "169.254.169.123"',
      'settings.ntp.time-servers as a list of time servers, such as ["169.254.169.123"] (Bottlerocket\'s NtpTimeServers), got a string',
      "ntp/src/lib.rs:11-22, 129-178",
    ],
    [
      "[settings.ntp]\ntime-servers = [1, 2]\n",
      "line 2: time-servers = [1, 2]",
      "settings.ntp.time-servers as a list of time servers",
      "NtpTimeServers",
    ],
    [
      '[settings.ntp]\ntime-servers = ["time.aws.com", { address = "169.254.169.123" }]\n',
      'line 2: time-servers = ["time.aws.com", { address = "169.254.169.123" }]',
      "all URL strings or all server tables, got a list of both",
      "NtpTimeServers",
    ],
    [
      '[settings.ntp]\ntime-servers = ["not a url"]\n',
      'line 2: time-servers = ["not a url"]',
      'each a URL, got "not a url"',
      "NtpTimeServers",
    ],
    [
      '[settings.ntp]\noptions = "iburst"\n',
      'line 2: options = "iburst"',
      "settings.ntp.options as an array of strings, got a string",
      "NtpSettingsV1",
    ],
  ])("%j is refused", (userData, value, problem, source) => {
    const e = rejection("EC2NodeClass", br(userData), "1.15.0");
    expect(e.problems).toHaveLength(1);
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.field).toBe("userData");
    expect(e.value).toBe(value);
    expect(e.message).toContain(problem);
    expect(e.message).toContain(AT_BOOT);
    expect(e.message).toContain("RequiredBy=preconfigured.target");
    expect(e.message).toContain(source);
  });

  test("all three tables' problems are reported in one error, each naming its field", () => {
    const e = rejection(
      "EC2NodeClass",
      br(
        '[settings.host-containers.admin]\nenabled = "yes"\n\n[settings.kernel.sysctl]\n"net.core.somaxconn" = 1024\n\n[settings.ntp]\ntime-servers = "169.254.169.123"\n',
      ),
      "1.15.0",
    );
    expect(e.problems).toHaveLength(1);
    expect(e.value).toBe('line 2: enabled = "yes"');
    expect(e.message).toContain("settings.host-containers.admin.enabled as true or false, got a string");
    expect(e.message).toContain("Also line 5: settings.kernel.sysctl.net.core.somaxconn as a string");
    expect(e.message).toContain("Also line 8: settings.ntp.time-servers as a list of time servers");
  });

  test.each([
    // the valid look-alikes of C21, C22, C23
    "[settings.host-containers.admin]\nenabled = true\n",
    '[settings.kernel.sysctl]\n"net.core.somaxconn" = "1024"\n',
    '[settings.ntp]\ntime-servers = ["169.254.169.123"]\n',
    '[settings.host-containers.my-admin]\nsource = "public.ecr.aws/x/y:1"\nenabled = true\nsuperpowered = false\nuser-data = "Zm9vCg=="\ncommand = ["sh", "-c", "echo hi"]\n',
    'settings.kernel.sysctl."vm.max_map_count" = "262144"\n',
    // the newer models take server tables and named servers; which model an AMI ships is not known here
    '[[settings.ntp.time-servers]]\naddress = "169.254.169.123"\noptions = ["iburst"]\n',
    '[settings.ntp.time-servers.link-local]\naddress = "169.254.169.123"\n',
    '[settings.ntp]\ntime-servers = []\noptions = ["minpoll 4"]\nlogging = ["tracking"]\n',
    // kernel tables other than sysctl are not judged here
    '[settings.kernel]\nlockdown = "integrity"\n',
  ])("%j passes", (userData) => {
    expectPassesQuietly(userData);
  });
});

describe("the other settings tables of the aws-k8s variants (fresh tester 38: B-10, B-16, B-17, B-18, B-21, B-22)", () => {
  test.each([
    [
      "[settings]\nmotd = 5\n",
      "line 2: motd = 5",
      "settings.motd as a string (write it in quotes, even a number), got an integer",
      "motd/src/lib.rs, MotdV1",
    ],
    [
      '[settings.container-runtime]\nmax-concurrent-downloads = "3"\n',
      'line 2: max-concurrent-downloads = "3"',
      "settings.container-runtime.max-concurrent-downloads as an integer from -2147483648 to 2147483647 (i32; a number, not a string), got a string",
      "container-runtime/src/lib.rs:8-29",
    ],
    [
      "[settings.container-runtime]\nmax-concurrent-download = 3\n",
      "line 2: max-concurrent-download = 3",
      "settings.container-runtime.max-concurrent-download as a field this table has",
      "ContainerRuntimeSettingsV1",
    ],
    [
      '[settings.container-runtime]\nsnapshotter = "stargz"\n',
      'line 2: snapshotter = "stargz"',
      'settings.container-runtime.snapshotter as one of "overlayfs", "soci", as written (Bottlerocket\'s Snapshotter), got "stargz"',
      "Snapshotter",
    ],
    [
      '[settings.metrics]\nsend-metrics = "false"\n',
      'line 2: send-metrics = "false"',
      "settings.metrics.send-metrics as true or false, got a string",
      "MetricsSettingsV1",
    ],
    [
      '[settings.boot]\nreboot-to-reconcile = "true"\n',
      'line 2: reboot-to-reconcile = "true"',
      "settings.boot.reboot-to-reconcile as true or false, got a string",
      "BootSettingsV1",
    ],
    [
      '[settings.autoscaling]\nshould-wait = "yes"\n',
      'line 2: should-wait = "yes"',
      "settings.autoscaling.should-wait as true or false, got a string",
      "AutoScalingSettingsV1",
    ],
    [
      '[settings.aws]\nconfig = "not base64!"\n',
      'line 2: config = "not base64!"',
      "settings.aws.config as base64 text on one line",
      "AwsSettingsV1",
    ],
    [
      "[settings.pki.my-ca]\ntrusted = 1\n",
      "line 2: trusted = 1",
      "settings.pki.my-ca.trusted as true or false, got an integer",
      "PkiSettingsV1",
    ],
    ...[
      ['"16 mb"', "16 mb"],
      ["-1", "-1"],
      ['"lots"', "lots"],
      ["true", "true"],
    ].map(([written]) => [
      `[settings.container-runtime]\nconcurrent-download-chunk-size = ${written}\n`,
      `line 2: concurrent-download-chunk-size = ${written}`,
      'settings.container-runtime.concurrent-download-chunk-size as a size such as "64mb" or "8MiB" without spaces, or a whole number of bytes of 0 or more (Bottlerocket\'s deserialize_chunk_size)',
      "ContainerRuntimeSettingsV1",
    ]),
    [
      '[settings.container-runtime]\nconcurrent-layer-fetch-buffer = "-5"\n',
      'line 2: concurrent-layer-fetch-buffer = "-5"',
      'settings.container-runtime.concurrent-layer-fetch-buffer as a size such as "64mb"',
      "ContainerRuntimeSettingsV1",
    ],
  ])("%j is refused", (userData, value, named, source) => {
    const e = rejection("EC2NodeClass", br(userData), "1.15.0");
    expect(e.problems).toHaveLength(1);
    expect(e.value).toBe(value);
    expect(e.message).toContain(named);
    expect(e.message).toContain(source);
    expect(e.message).toContain(AT_BOOT);
  });
  test.each([
    '[settings]\nmotd = "Welcome"\n',
    '[settings.container-runtime]\nmax-concurrent-downloads = 3\nmax-container-log-line-size = 16384\nenable-unprivileged-ports = true\nsnapshotter = "soci"\nconcurrent-download-chunk-size = "64mb"\n',
    '[settings.container-runtime]\nconcurrent-download-chunk-size = 8388608\nconcurrent-layer-fetch-buffer = ".5gb"\nlog-level = "debug"\n',
    '[settings.container-runtime]\nconcurrent-download-chunk-size = "8MiB"\n',
    '[settings.container-runtime]\nconcurrent-download-chunk-size = " 1048576 "\n',
    '[settings.metrics]\nsend-metrics = false\nmetrics-url = "https://metrics.example.com/v1/metrics"\nservice-checks = ["apiserver"]\n',
    '[settings.boot]\nreboot-to-reconcile = true\n[settings.boot.kernel-parameters]\n"console" = ["tty0", "ttyS0"]\n',
    "[settings.autoscaling]\nshould-wait = true\n",
    '[settings.aws]\nregion = "eu-west-1"\nprofile = "default"\n',
    '[settings.cloudformation]\nshould-signal = true\nstack-name = "nodes"\nlogical-resource-id = "Asg"\n',
    "[settings.oci-hooks]\nlog4j-hotpatch-enabled = false\n",
    "[settings.oci-defaults.capabilities]\nsys-admin = false\nnet-admin = true\n",
    // data is base64 of the PEM bundle (PemCertificateString)
    '[settings.pki.my-ca]\ndata = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUIKLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo="\ntrusted = true\n',
  ])("%j passes", (userData) => {
    expectPassesQuietly(userData);
  });
});

describe("the values inside Bottlerocket's boot parameters, OCI defaults and PKI bundles (fresh tester 40: B12, B41, C22, B62, B42, B43, B44, C21, B16)", () => {
  test.each([
    [
      '[settings.boot.kernel-parameters]\n"console" = "tty0"\n',
      "settings.boot.kernel-parameters.console as an array, each a string of printable ASCII",
    ],
    [
      '[settings.boot.init-parameters]\n"systemd.log_level" = "debug"\n',
      "settings.boot.init-parameters.systemd.log_level as an array",
    ],
    [
      '[settings.boot.kernel-parameters]\n"console" = [1, 2]\n',
      "settings.boot.kernel-parameters.console[0] as a string, got an integer",
    ],
    ['[settings.boot.kernel-parameters]\n"bad key" = ["x"]\n', '(Bottlerocket\'s BootConfigKey), got "bad key"'],
    [
      '[settings.oci-defaults.resource-limits.max-open-files]\nhard-limit = "lots"\n',
      'hard-limit as a whole number from -1 up, or "unlimited"',
    ],
    [
      "[settings.oci-defaults.resource-limits.max-open-file]\nhard-limit = 10\n",
      "a resource limit Bottlerocket's OciDefaultsResourceLimitType names",
    ],
    [
      "[settings.oci-defaults.capabilities]\nsys-admn = true\n",
      "settings.oci-defaults.capabilities.sys-admn as a capability Bottlerocket's OciDefaultsCapability names",
    ],
    [
      '[settings.pki.ca]\ndata = "not a cert"\n',
      "settings.pki.ca.data as base64 (with its padding) of one or more PEM X.509 certificates",
    ],
    ['[settings.pki.ca]\ndata = "W3N0dWZmXQo="\n', 'got "W3N0dWZmXQo="'],
  ])("%j is refused", (userData, named) => {
    const e = rejection("EC2NodeClass", br(userData), "1.15.0");
    expect(e.problems).toHaveLength(1);
    expect(e.message).toContain(named);
    expect(e.message).toContain(AT_BOOT);
  });
  const pem = Buffer.from("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n").toString("base64");
  test.each([
    '[settings.boot.kernel-parameters]\n"console" = ["tty0", "ttyS0,115200n8"]\n"systemd.log_level" = ["debug"]\n',
    '[settings.boot.kernel]\n"quiet" = []\n',
    '[settings.oci-defaults.resource-limits.max-open-files]\nhard-limit = "unlimited"\nsoft-limit = -1\n',
    "[settings.oci-defaults.capabilities]\nsys-admin = true\nnet-raw = false\n",
    `[settings.pki.ca]\ndata = "${pem}"\ntrusted = true\n`,
    '[settings.pki.deleted]\ndata = ""\n',
  ])("%j passes", (userData) => {
    expectPassesQuietly(userData);
  });
});

describe("fresh tester 41: rlimits soft above hard, base64 without its padding, a private key in a PKI bundle", () => {
  test.each([
    [
      "[settings.oci-defaults.resource-limits.max-open-files]\nsoft-limit = 8192\nhard-limit = 4096\n",
      "line 2: soft-limit = 8192",
      "got soft-limit 8192 above hard-limit 4096",
    ],
    [
      '[settings.oci-defaults.resource-limits.max-open-files]\nsoft-limit = "unlimited"\nhard-limit = 1024\n',
      'line 2: soft-limit = "unlimited"',
      'got soft-limit "unlimited" above hard-limit 1024',
    ],
  ])("%j is refused: no container starts", (userData, value, named) => {
    const e = rejection("EC2NodeClass", br(userData), "1.15.0");
    expect(e.problems).toHaveLength(1);
    expect(e.value).toBe(value);
    expect(e.message).toContain(named);
    expect(e.message).toContain("schnauzer/src/helpers/mod.rs:1197-1214");
    expect(e.message).toContain("so no container starts on the node");
  });
  test.each([
    [
      '[settings.pki.ca]\ndata = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUIKLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo"\n',
      "settings.pki.ca.data as base64 (with its padding)",
    ],
    [
      '[settings.pki.ca]\ndata = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUIKLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQotLS0tLUJFR0lOIFBSSVZBVEUgS0VZLS0tLS0KTUlJRQotLS0tLUVORCBQUklWQVRFIEtFWS0tLS0tCg=="\n',
      "no private key",
    ],
    [
      '[settings.bootstrap-containers.setup]\nsource = "public.ecr.aws/x/setup:1"\nmode = "once"\nuser-data = "aGVsbG8"\n',
      'base64 text on one line with its "=" padding',
    ],
  ])("%j is refused", (userData, named) => {
    const e = rejection("EC2NodeClass", br(userData), "1.15.0");
    expect(e.message).toContain(named);
    expect(e.message).toContain(AT_BOOT);
  });
  test.each([
    "[settings.oci-defaults.resource-limits.max-open-files]\nsoft-limit = 1024\nhard-limit = 8192\n",
    '[settings.oci-defaults.resource-limits.max-open-files]\nsoft-limit = 1024\nhard-limit = "unlimited"\n',
    "[settings.oci-defaults.resource-limits.max-open-files]\nsoft-limit = -1\nhard-limit = -1\n",
    '[settings.bootstrap-containers.setup]\nsource = "public.ecr.aws/x/setup:1"\nmode = "once"\nuser-data = "aGVsbG8="\n',
  ])("%j passes", (userData) => {
    expectPassesQuietly(userData);
  });
});

describe("fresh tester 42: an OCI defaults resource limit needs both limits", () => {
  test.each([
    [
      "[settings.oci-defaults.resource-limits.max-open-files]\nhard-limit = 4096\n",
      "line 2: hard-limit = 4096",
      "got no soft-limit",
      "missing field soft-limit",
    ],
    [
      "[settings.oci-defaults.resource-limits.max-open-files]\nsoft-limit = 1024\n",
      "line 2: soft-limit = 1024",
      "got no hard-limit",
      "missing field hard-limit",
    ],
    [
      "[settings.oci-defaults.resource-limits.max-open-files]\n",
      "line 1: [settings.oci-defaults.resource-limits.max-open-files]",
      "got neither",
      "missing field hard-limit",
    ],
    [
      "[settings.oci-defaults.resource-limits]\nmax-processes = {}\n",
      "line 2: max-processes = {}",
      "got neither",
      "missing field hard-limit",
    ],
  ])("%j is refused: the settings model has no default", (userData, value, got, serde) => {
    const e = rejection("EC2NodeClass", br(userData), "1.15.0");
    expect(e.problems).toHaveLength(1);
    expect(e.value).toBe(value);
    expect(e.message).toContain("with both hard-limit and soft-limit");
    expect(e.message).toContain(got);
    expect(e.message).toContain(`"${serde}"`);
    expect(e.message).toContain("oci-defaults/src/lib.rs:20-27");
  });
  test.each([
    "[settings.oci-defaults.resource-limits.max-open-files]\nhard-limit = 4096\nsoft-limit = 4096\n",
    '[settings.oci-defaults.resource-limits]\nmax-processes = { hard-limit = "unlimited", soft-limit = 1024 }\n',
    "[settings.oci-defaults]\nresource-limits = {}\n",
  ])("%j passes", (userData) => {
    expectPassesQuietly(userData);
  });
});

describe("fresh tester 44: a TOML integer past int64 anywhere in the settings (X9, X11)", () => {
  test.each([
    [
      "[settings.oci-defaults.resource-limits.max-open-files]\nhard-limit = 18446744073709551615\nsoft-limit = 1024\n",
      "settings.oci-defaults.resource-limits.max-open-files.hard-limit = 18446744073709551615",
    ],
    [
      "[settings.oci-defaults.resource-limits.max-open-files]\nhard-limit = -1\nsoft-limit = 9223372036854775808\n",
      "soft-limit = 9223372036854775808",
    ],
    [
      "[settings.metrics]\nsend-metrics = false\n[settings.updates]\nseed = 99999999999999999999\n",
      "settings.updates.seed = 99999999999999999999",
    ],
  ])("%j is refused: go-toml cannot parse the integer, so Karpenter refuses the user data", (userData, named) => {
    const e = rejection("EC2NodeClass", br(userData), "1.15.0");
    expect(e.message).toContain("TOML integers from -9223372036854775808 to 9223372036854775807");
    expect(e.message).toContain(named);
    expect(e.message).toContain('"decimal number is too large to fit in a 64-bit signed integer"');
  });
  test.each([
    "[settings.oci-defaults.resource-limits.max-open-files]\nhard-limit = 9223372036854775807\nsoft-limit = 1024\n",
    '[settings.oci-defaults.resource-limits.max-open-files]\nhard-limit = "unlimited"\nsoft-limit = -1\n',
  ])("%j passes", (userData) => {
    expectPassesQuietly(userData);
  });
});

test("a TOML integer in a message is written with all its digits, as the user wrote it (fresh tester 46: D27)", () => {
  const e = rejection("EC2NodeClass", br("[settings.kubernetes]\nkube-api-qps = 9223372036854775807\n"), "1.15.0");
  expect(e.message).toContain("got 9223372036854775807");
  expect(e.message).not.toContain("9223372036854776000");
});
