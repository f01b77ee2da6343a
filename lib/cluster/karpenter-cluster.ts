import { Construct } from "constructs";
import { TerraformDataSource, TerraformElement, TerraformResource } from "cdktf";
import type { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import type { DataAwsEksCluster } from "@cdktf/provider-aws/lib/data-aws-eks-cluster";
import { KarpenterValidationError } from "../core/errors";
import { isUnresolved } from "../core/tokens";
import { checkProvider, recordDefault } from "../core/provider-choice";
import { checkEksClusterName, checkOptionKeys } from "../aws-api/input-checks";
import { Problems } from "../core/problems";
import { FROM_CLUSTER_NAME_OPTIONS } from "../core/prop-keys";

/** Options of {@link KarpenterCluster.fromClusterName}. */
export interface FromClusterNameOptions {
  /**
   * The AWS provider of the cluster's region and account: the data source reads the cluster through
   * it, and every AWS resource of an install on this cluster uses it. Required when the stack holds
   * several AWS providers (or only an aliased one): synth fails naming this option otherwise.
   * @default the stack's default AWS provider, when it is the only one
   */
  readonly provider?: AwsProvider;
}

/**
 * The EKS cluster Karpenter is installed on, as every construct of this library sees it.
 *
 * Get one with {@link KarpenterCluster.fromEksCluster} (a cluster defined in the same app) or
 * {@link KarpenterCluster.fromClusterName} (an existing cluster, read with a data source).
 * Every attribute is usually a Terraform reference (a token), so using it also orders resources
 * after the cluster.
 */
export interface IKarpenterCluster {
  /** The cluster name (`settings.clusterName`, discovery tag value, IAM names). */
  readonly clusterName: string;
  /**
   * The cluster name when it is known at synth (a literal), used to check derived AWS names
   * (IAM role ≤ 64 characters, SQS queue ≤ 80…) before apply.
   * @default undefined: only a token is known (e.g. an `EksCluster` whose name is a reference), and
   * derived names are left to the AWS APIs
   */
  readonly clusterNameLiteral?: string;
  /** The cluster ARN, `arn:<partition>:eks:<region>:<account>:cluster/<name>`. */
  readonly clusterArn: string;
  /** The Kubernetes API server endpoint (`https://…`). */
  readonly endpoint: string;
  /** The base64-encoded certificate authority data of the API server. */
  readonly certificateAuthorityData: string;
  /** The OIDC issuer URL (`https://oidc.eks.<region>.amazonaws.com/id/<id>`), used by IRSA. */
  readonly oidcIssuerUrl: string;
  /** The EKS-created cluster security group: the one security group that carries the discovery tag. */
  readonly clusterSecurityGroupId: string;
  /** The Kubernetes version of the control plane, e.g. `"1.33"`. */
  readonly kubernetesVersion: string;
  /**
   * The Terraform object that defines or reads the cluster: the `aws_eks_cluster` resource (an
   * `EksCluster`, from {@link KarpenterCluster.fromEksCluster}) or the `data.aws_eks_cluster` data
   * source (a `DataAwsEksCluster`, from {@link KarpenterCluster.fromClusterName}), typed as the
   * `TerraformElement` both are, so that every language gets one type. Resources that need the
   * cluster to exist depend on it (TypeScript: `dependsOn: [cluster.resource]`; other languages:
   * {@link IKarpenterCluster.eksCluster} or {@link IKarpenterCluster.eksClusterData}, which are
   * `ITerraformDependable`), its construct path names the cluster in messages, and its `provider`
   * (the stack's default when unset) is the AWS provider every AWS resource and data source of an
   * install on the cluster uses (in the cluster's stack).
   */
  readonly resource: TerraformElement;
  /**
   * The `aws_eks_cluster` resource, typed, when the cluster is defined in this app
   * ({@link KarpenterCluster.fromEksCluster}); the same object as {@link IKarpenterCluster.resource}.
   * @default undefined: the cluster is read by name ({@link IKarpenterCluster.eksClusterData})
   */
  readonly eksCluster?: EksCluster;
  /**
   * The `data.aws_eks_cluster` data source, typed, when the cluster is read by name
   * ({@link KarpenterCluster.fromClusterName}); the same object as {@link IKarpenterCluster.resource}.
   * @default undefined: the cluster is defined in this app ({@link IKarpenterCluster.eksCluster})
   */
  readonly eksClusterData?: DataAwsEksCluster;
}

/**
 * Factories for {@link IKarpenterCluster}.
 */
export class KarpenterCluster implements IKarpenterCluster {
  /**
   * A cluster defined in this cdktf app (`aws_eks_cluster`). Its attributes are references, so
   * whatever uses them waits for the cluster; its literal name (when given as a literal) is used
   * to check derived names at synth.
   * @param cluster the `EksCluster` resource
   * @throws KarpenterValidationError (path `KarpenterCluster.fromEksCluster`, field `cluster`) when
   * `cluster` is not an `EksCluster` resource of `@cdktf/provider-aws` (e.g. undefined, a plain object,
   * or a `DataAwsEksCluster`: use {@link KarpenterCluster.fromClusterName} for a cluster the app does
   * not create); (path: the EksCluster's construct path, field `name`) when its literal name breaks
   * the EKS naming rule: 1–100 characters, letters, digits, `-` and `_`, starting with a letter or
   * digit (EKS CreateCluster API; hashicorp/aws `validClusterName`)
   */
  public static fromEksCluster(cluster: EksCluster): IKarpenterCluster {
    checkEksClusterResource(cluster);
    const literal = cluster.nameInput;
    // checked here, where the name is given, rather than later as a queue or role name derived from it
    if (literal !== undefined) checkEksClusterName(cluster.node.path, "name", literal);
    return new KarpenterCluster({
      clusterName: cluster.name,
      clusterNameLiteral: literal !== undefined && !isUnresolved(literal) ? literal : undefined,
      clusterArn: cluster.arn,
      endpoint: cluster.endpoint,
      certificateAuthorityData: cluster.certificateAuthority.get(0).data,
      oidcIssuerUrl: cluster.identity.get(0).oidc.get(0).issuer,
      clusterSecurityGroupId: cluster.vpcConfig.clusterSecurityGroupId,
      kubernetesVersion: cluster.version,
      resource: cluster,
      eksCluster: cluster,
    });
  }

  /**
   * An existing cluster, read by name with a `data.aws_eks_cluster` data source created at
   * `scope/id`. Use it to put Karpenter on a cluster this app does not create.
   * @param scope where the data source is created
   * @param id the data source's construct id
   * @param clusterName the cluster name (1–100 characters: letters, digits, `-`, `_`, starting with a letter or digit)
   * @param options `provider`: the AWS provider of the cluster's region and account (see {@link FromClusterNameOptions})
   * @throws KarpenterValidationError when a literal name breaks the EKS naming rule, `options` has a key
   * outside {@link FromClusterNameOptions}, or `provider` is
   * not an AwsProvider of the scope's stack; at synth, without `provider` in a stack holding several
   * AWS providers or only an aliased one
   */
  public static fromClusterName(
    scope: Construct,
    id: string,
    clusterName: string,
    options: FromClusterNameOptions = {},
  ): IKarpenterCluster {
    const path = `${scope.node.path}/${id}`;
    const problems = new Problems();
    problems.check(() => checkOptionKeys(path, "options", options, FROM_CLUSTER_NAME_OPTIONS));
    problems.check(() => checkEksClusterName(path, "clusterName", clusterName));
    problems.throwIfAny(path);
    const provider = options?.provider ?? undefined;
    if (provider) checkProvider(scope, path, "aws", "provider", provider);
    // loaded only here: the data source class is the largest module the library uses (230 KB)
    const { DataAwsEksCluster } =
      require("@cdktf/provider-aws/lib/data-aws-eks-cluster") as typeof import("@cdktf/provider-aws/lib/data-aws-eks-cluster");
    const data = new DataAwsEksCluster(scope, id, { name: clusterName, provider });
    if (!provider) recordDefault(data, "aws", "provider", data, false);
    return new KarpenterCluster({
      // the literal keeps names readable in the plan; the data source still fails the plan if the cluster is missing
      clusterName: isUnresolved(clusterName) ? data.name : clusterName,
      clusterNameLiteral: isUnresolved(clusterName) ? undefined : clusterName,
      clusterArn: data.arn,
      endpoint: data.endpoint,
      certificateAuthorityData: data.certificateAuthority.get(0).data,
      oidcIssuerUrl: data.identity.get(0).oidc.get(0).issuer,
      clusterSecurityGroupId: data.vpcConfig.get(0).clusterSecurityGroupId,
      kubernetesVersion: data.version,
      resource: data,
      eksClusterData: data,
    });
  }

  /** @inheritdoc */
  public readonly clusterName: string;
  /** @inheritdoc */
  public readonly clusterNameLiteral?: string;
  /** @inheritdoc */
  public readonly clusterArn: string;
  /** @inheritdoc */
  public readonly endpoint: string;
  /** @inheritdoc */
  public readonly certificateAuthorityData: string;
  /** @inheritdoc */
  public readonly oidcIssuerUrl: string;
  /** @inheritdoc */
  public readonly clusterSecurityGroupId: string;
  /** @inheritdoc */
  public readonly kubernetesVersion: string;
  /** @inheritdoc */
  public readonly resource: TerraformElement;
  /** @inheritdoc */
  public readonly eksCluster?: EksCluster;
  /** @inheritdoc */
  public readonly eksClusterData?: DataAwsEksCluster;

  private constructor(attrs: IKarpenterCluster) {
    this.clusterName = attrs.clusterName;
    this.clusterNameLiteral = attrs.clusterNameLiteral;
    this.clusterArn = attrs.clusterArn;
    this.endpoint = attrs.endpoint;
    this.certificateAuthorityData = attrs.certificateAuthorityData;
    this.oidcIssuerUrl = attrs.oidcIssuerUrl;
    this.clusterSecurityGroupId = attrs.clusterSecurityGroupId;
    this.kubernetesVersion = attrs.kubernetesVersion;
    this.resource = attrs.resource;
    this.eksCluster = attrs.eksCluster;
    this.eksClusterData = attrs.eksClusterData;
  }
}

/**
 * `fromEksCluster` reads the resource's attributes: anything but an `aws_eks_cluster` resource would
 * fail there with a bare TypeError (or read a data source's attributes as a resource's).
 */
function checkEksClusterResource(cluster: unknown): void {
  const where = "KarpenterCluster.fromEksCluster";
  const expected = "an EksCluster resource (@cdktf/provider-aws/lib/eks-cluster) defined in this app";
  if (cluster instanceof TerraformDataSource) {
    throw new KarpenterValidationError(
      "CLUSTER_NOT_KARPENTER_CLUSTER",
      where,
      "cluster",
      cluster.node.path,
      `${expected}; this is a data source: for a cluster the app does not create use KarpenterCluster.fromClusterName(scope, id, name)`,
    );
  }
  const isResource = cluster instanceof TerraformResource && cluster.terraformResourceType === "aws_eks_cluster";
  if (!isResource) {
    const shown =
      cluster === undefined || cluster === null
        ? cluster
        : cluster instanceof TerraformResource
          ? cluster.node.path
          : "(not an EksCluster)";
    throw new KarpenterValidationError(
      "CLUSTER_NOT_KARPENTER_CLUSTER",
      where,
      "cluster",
      shown,
      `${expected}, or KarpenterCluster.fromClusterName(scope, id, name) for a cluster the app does not create`,
    );
  }
}
