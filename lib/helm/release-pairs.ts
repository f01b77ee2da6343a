import { IConstruct } from "constructs";
import { TerraformProvider, TerraformStack } from "cdktf";
import type { Release } from "@cdktf/provider-helm/lib/release";
import { KarpenterValidationError } from "../core/errors";
import { appIndex, attached, register, registered } from "../core/app-index";
import { providerName } from "../core/provider-choice";
import { installOf, reportedOn } from "../cluster/install-index";
import * as semver from "../versions/semver";

/*
 * A hand-composed install pairs a KarpenterCrdRelease with a KarpenterRelease. Both reach their
 * cluster through a Helm provider: releases on the same provider configuration (the same one given,
 * or the same stack's default) install into the same cluster, where the CRDs are cluster-scoped,
 * whatever namespace each release record is in. The controller needs the CRDs of its own version
 * (Karpenter upgrade guide, "CRD upgrades": the karpenter-crd chart is upgraded with the controller,
 * to the same version), so a pair at two versions is a synth error naming both. Two karpenter-crd
 * releases on one cluster are an error too: Helm lets only one release own the CRDs.
 */

/** A release as the pairing sees it: its construct, chart version and `helm_release`. */
export interface PairedRelease extends IConstruct {
  readonly version: string;
  readonly release: Release;
}

const CRD_RELEASES = "karpenter-crd-releases";

/** Records a karpenter-crd release of the app. */
export function registerCrdRelease(crd: PairedRelease): void {
  register(crd, CRD_RELEASES, crd);
}

/** The cluster a release reaches, as far as synth can tell: its stack and Helm provider configuration. */
function target(release: Release): string {
  const provider = release.provider as TerraformProvider | undefined;
  return `${TerraformStack.of(release).node.path}\u0000${provider ? provider.node.path : "(default)"}`;
}

/** How the Helm provider of a release is written, for messages: `helm.eu`, or the stack's default one. */
function providerText(release: Release): string {
  const provider = release.provider as TerraformProvider | undefined;
  return provider ? providerName(provider) : `the default helm provider of stack ${TerraformStack.of(release).node.id}`;
}

/** The karpenter-crd releases of the app still in the tree, by the cluster they reach. */
function crdReleasesByTarget(scope: IConstruct): Map<string, PairedRelease[]> {
  return appIndex(scope, CRD_RELEASES, () => {
    const map = new Map<string, PairedRelease[]>();
    for (const crd of registered<PairedRelease>(scope, CRD_RELEASES)) {
      if (!attached(crd)) continue;
      const key = target(crd.release);
      map.set(key, [...(map.get(key) ?? []), crd]);
    }
    return map;
  });
}

/**
 * One karpenter-crd release per cluster: the CRDs are cluster-scoped, and Helm refuses to install
 * objects that another release owns, so the second release fails at apply. The problem of `crd`
 * when another karpenter-crd release of the app uses the same Helm provider, naming it.
 */
export function duplicateCrdProblems(crd: PairedRelease): KarpenterValidationError[] {
  if (!attached(crd)) return [];
  // two CRD releases of two installs: the one-install-per-cluster error says it
  const mine = installOf(crd);
  const others = (crdReleasesByTarget(crd).get(target(crd.release)) ?? []).filter(
    (o) => o !== crd && !(mine && installOf(o)),
  );
  if (others.length === 0) return [];
  return [
    new KarpenterValidationError(
      "HELM_CRD_RELEASE_SHARED",
      reportedOn(crd),
      "helmProvider",
      providerText(crd.release),
      `a Helm provider (a cluster) no other karpenter-crd release of the app uses: ${others.map((o) => reportedOn(o).node.path).join(", ")} also ${others.length > 1 ? "install" : "installs"} the Karpenter CRDs through it. ` +
        "The CRDs are cluster-scoped and Helm does not install objects another release owns, so the second release fails at apply; keep one karpenter-crd release per cluster (a Karpenter brings its own)",
    ),
  ];
}

/**
 * The problems of a controller release whose cluster (same Helm provider) gets CRDs of another
 * version from a karpenter-crd release of the app, one per such CRD release.
 */
export function crdVersionProblems(controller: PairedRelease): KarpenterValidationError[] {
  if (!attached(controller)) return [];
  return (
    (crdReleasesByTarget(controller).get(target(controller.release)) ?? [])
      // the CRD release of another install on the cluster: the one-install-per-cluster error says it
      .filter(
        (crd) =>
          crd.version !== controller.version &&
          (installOf(crd) === undefined || installOf(crd) === installOf(controller)),
      )
      .map((crd) => {
        const [mine, theirs] = [reportedOn(controller).node.path, reportedOn(crd).node.path];
        const older = semver.lt(crd.version, controller.version);
        const why = older
          ? `CRDs older than the controller lack fields and enum values the ${controller.version} controller reads and writes`
          : `CRDs newer than the controller hold fields the ${controller.version} controller does not know`;
        return new KarpenterValidationError(
          "HELM_CRD_VERSION_MISMATCH",
          reportedOn(controller),
          "version",
          controller.version,
          `the version of the CRDs on its cluster: ${theirs} installs the karpenter-crd chart ${crd.version} through the same Helm provider (${providerText(controller.release)}), ` +
            `and ${why} (Karpenter upgrade guide, "CRD upgrades": upgrade the karpenter-crd chart with the controller, to the same version); set ${mine} and ${theirs} to one version`,
        );
      })
  );
}
