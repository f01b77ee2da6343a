import { IConstruct } from "constructs";
import { TerraformProvider, TerraformStack } from "cdktf";
import type { Release } from "@cdktf/provider-helm/lib/release";
import { KarpenterValidationError } from "../errors";
import { appIndex, attached, register, registered } from "./app-index";
import { providerName } from "./provider-choice";
import * as semver from "./semver";

/*
 * A hand-composed install pairs a KarpenterCrdRelease with a KarpenterRelease. Both reach their
 * cluster through a Helm provider: releases on the same provider configuration (the same one given,
 * or the same stack's default) install into the same cluster, where the CRDs are cluster-scoped,
 * whatever namespace each release record is in. The controller needs the CRDs of its own version
 * (Karpenter upgrade guide, "CRD upgrades": the karpenter-crd chart is upgraded with the controller,
 * to the same version), so a pair at two versions is a synth error naming both.
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

/**
 * The problems of a controller release whose cluster (same Helm provider) gets CRDs of another
 * version from a karpenter-crd release of the app, one per such CRD release.
 */
export function crdVersionProblems(controller: PairedRelease): KarpenterValidationError[] {
  if (!attached(controller)) return [];
  const byTarget = appIndex(controller, CRD_RELEASES, () => {
    const map = new Map<string, PairedRelease[]>();
    for (const crd of registered<PairedRelease>(controller, CRD_RELEASES)) {
      if (!attached(crd)) continue;
      const key = target(crd.release);
      map.set(key, [...(map.get(key) ?? []), crd]);
    }
    return map;
  });
  return (byTarget.get(target(controller.release)) ?? [])
    .filter((crd) => crd.version !== controller.version)
    .map((crd) => {
      const older = semver.lt(crd.version, controller.version);
      const why = older
        ? `CRDs older than the controller lack fields and enum values the ${controller.version} controller reads and writes`
        : `CRDs newer than the controller hold fields the ${controller.version} controller does not know`;
      return new KarpenterValidationError(
        controller,
        "version",
        controller.version,
        `the version of the CRDs on its cluster: ${crd.node.path} installs the karpenter-crd chart ${crd.version} through the same Helm provider (${providerText(controller.release)}), ` +
          `and ${why} (Karpenter upgrade guide, "CRD upgrades": upgrade the karpenter-crd chart with the controller, to the same version); set ${controller.node.path} and ${crd.node.path} to one version`,
      );
    });
}
