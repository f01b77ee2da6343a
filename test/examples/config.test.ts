import { DEFAULTS, readConfig } from "../../examples/eks-karpenter/config";

describe("example settings", () => {
  test("defaults when nothing is set", () => {
    const c = readConfig({});
    expect(c).toMatchObject({
      clusterName: DEFAULTS.clusterName,
      region: "us-east-1",
      karpenterVersion: "1.15.3",
      publicAccessCidrs: ["0.0.0.0/0"],
      inflateReplicas: 0,
      spotServiceLinkedRole: false,
      stateBucket: undefined,
      stateRegion: "us-east-1",
      stateKeyPrefix: `karpenter/${DEFAULTS.clusterName}`,
    });
  });

  test("Kubernetes defaults to 1.36, or the newest the chosen Karpenter runs on", () => {
    expect(readConfig({}).kubernetesVersion).toBe("1.36");
    expect(readConfig({ KARPENTER_VERSION: "1.0.14" }).kubernetesVersion).toBe("1.31");
    expect(readConfig({ KARPENTER_VERSION: "1.0.4" }).kubernetesVersion).toBe("1.30");
    expect(readConfig({ KARPENTER_VERSION: "1.14.1" }).kubernetesVersion).toBe("1.36");
    expect(readConfig({ KARPENTER_VERSION: "1.0.14", KUBERNETES_VERSION: "1.29" }).kubernetesVersion).toBe("1.29");
  });

  test("a release newer than every known one passes with KARPENTER_UNVERIFIED_VERSION=true; 1.15.3 needs no switch", () => {
    expect(readConfig({ KARPENTER_VERSION: "1.16.0", KARPENTER_UNVERIFIED_VERSION: "true" })).toMatchObject({
      karpenterVersion: "1.16.0",
      allowUnverifiedVersion: true,
    });
    expect(readConfig({ KARPENTER_VERSION: "1.15.3" })).toMatchObject({
      karpenterVersion: "1.15.3",
      allowUnverifiedVersion: false,
    });
  });

  test("PUBLIC_ACCESS_CIDRS unset is the documented 0.0.0.0/0; a list with an empty item keeps its CIDRs", () => {
    expect(readConfig({}).publicAccessCidrs).toEqual(["0.0.0.0/0"]);
    expect(readConfig({ PUBLIC_ACCESS_CIDRS: "203.0.113.0/24," }).publicAccessCidrs).toEqual(["203.0.113.0/24"]);
  });

  test("reads every variable", () => {
    const c = readConfig({
      CLUSTER_NAME: "prod",
      AWS_REGION: "eu-west-1",
      KUBERNETES_VERSION: "1.33",
      KARPENTER_VERSION: "1.9.2",
      PUBLIC_ACCESS_CIDRS: "203.0.113.0/24, 198.51.100.7/32",
      INFLATE_REPLICAS: "5",
      SPOT_SERVICE_LINKED_ROLE: "true",
      KARPENTER_UNVERIFIED_VERSION: "true",
      STATE_BUCKET: "tf-state",
      STATE_REGION: "us-east-2",
      STATE_KEY_PREFIX: "teams/platform",
    });
    expect(c).toEqual({
      clusterName: "prod",
      region: "eu-west-1",
      kubernetesVersion: "1.33",
      karpenterVersion: "1.9.2",
      allowUnverifiedVersion: true,
      publicAccessCidrs: ["203.0.113.0/24", "198.51.100.7/32"],
      inflateReplicas: 5,
      spotServiceLinkedRole: true,
      stateBucket: "tf-state",
      stateRegion: "us-east-2",
      stateKeyPrefix: "teams/platform",
    });
  });

  test.each([
    [{ PUBLIC_ACCESS_CIDRS: "10.0.0.0" }, /PUBLIC_ACCESS_CIDRS: "10.0.0.0" is not an IPv4 CIDR/],
    // set but empty: EKS would take the empty list as 0.0.0.0/0 (issue 31)
    [
      { PUBLIC_ACCESS_CIDRS: "" },
      /^PUBLIC_ACCESS_CIDRS: "" names no CIDR, and an empty list opens the API endpoint to 0\.0\.0\.0\/0 \(EKS's default\): set the CIDRs allowed to reach it, .* or unset PUBLIC_ACCESS_CIDRS for the documented default 0\.0\.0\.0\/0$/,
    ],
    [{ PUBLIC_ACCESS_CIDRS: " , " }, /^PUBLIC_ACCESS_CIDRS: " , " names no CIDR/],
    [{ PUBLIC_ACCESS_CIDRS: "300.0.0.0/8" }, /PUBLIC_ACCESS_CIDRS: "300.0.0.0\/8"/],
    // host bits: the aws provider refuses them at plan (fresh tester 39: 7.10); leading zeros: Go's ParseCIDR
    [
      { PUBLIC_ACCESS_CIDRS: "203.0.113.7/24" },
      /^PUBLIC_ACCESS_CIDRS: "203\.0\.113\.7\/24" has host bits set; did you mean 203\.0\.113\.0\/24\? The aws provider refuses it at plan/,
    ],
    [{ PUBLIC_ACCESS_CIDRS: "10.1.0.0/8" }, /did you mean 10\.0\.0\.0\/8\?/],
    [{ PUBLIC_ACCESS_CIDRS: "010.0.0.0/8" }, /PUBLIC_ACCESS_CIDRS: "010\.0\.0\.0\/8" is not an IPv4 CIDR/],
    [{ INFLATE_REPLICAS: "-1" }, /INFLATE_REPLICAS: "-1" is not a whole number/],
    // S3's reserved bucket prefixes and suffixes (fresh tester 24 S-18)
    [{ STATE_BUCKET: "xn--tfstate" }, /STATE_BUCKET: "xn--tfstate" is not an S3 bucket name/],
    [{ STATE_BUCKET: "tfstate-s3alias" }, /STATE_BUCKET: "tfstate-s3alias" is not an S3 bucket name/],
    // a Deployment's replicas is an int32 (fresh tester 23 S-4)
    [
      { INFLATE_REPLICAS: "99999999999" },
      /INFLATE_REPLICAS: "99999999999" is not a whole number of replicas from 0 to 2147483647/,
    ],
    [{ KUBERNETES_VERSION: "latest" }, /KUBERNETES_VERSION: "latest"/],
    [{ SPOT_SERVICE_LINKED_ROLE: "yes" }, /SPOT_SERVICE_LINKED_ROLE: "yes" is not true or false/],
    [{ CLUSTER_NAME: "my cluster" }, /CLUSTER_NAME: "my cluster" is not an EKS cluster name/],
    [
      { AWS_REGION: "mars-1" },
      /^AWS_REGION: "mars-1" is not an AWS region name such as us-east-1, ap-southeast-5, us-gov-west-1 or cn-north-1$/,
    ],
    [{ STATE_REGION: "us_east_1" }, /^STATE_REGION: "us_east_1" is not an AWS region name/],
    [{ CLUSTER_NAME: "c".repeat(41) }, /CLUSTER_NAME: "c{41}" is not an EKS cluster name of at most 40 characters/],
    [{ STATE_BUCKET: "My_Bucket" }, /STATE_BUCKET: "My_Bucket" is not an S3 bucket name/],
    [{ STATE_BUCKET: "x" }, /STATE_BUCKET: "x" is not an S3 bucket name/],
    // the example names its own switch, not the construct prop behind it
    [
      { KARPENTER_VERSION: "1.16.0" },
      /^KARPENTER_VERSION: "1\.16\.0" is newer than every Karpenter 1\.15 release, 1\.15 being the newest minor this library knows: set KARPENTER_UNVERIFIED_VERSION=true to install it anyway/,
    ],
  ])("rejects %j", (env, message) => {
    expect(() => readConfig(env)).toThrow(message);
  });
});
