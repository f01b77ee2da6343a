import type * as Yaml from "yaml";
import type * as GoYaml from "../core/go-yaml";

let loaded: typeof Yaml | undefined;
let goLoaded: typeof GoYaml | undefined;

/**
 * The `yaml` package, loaded on first use: only converting manifests reads or writes YAML, so a
 * synth that converts nothing does not load its 70 modules.
 */
export function yaml(): typeof Yaml {
  return (loaded ??= require("yaml") as typeof Yaml);
}

/** Reading and writing YAML as Kubernetes' Go reader does (core/go-yaml.ts), loaded with the `yaml` package on first use. */
export function goYaml(): typeof GoYaml {
  return (goLoaded ??= require("../core/go-yaml") as typeof GoYaml);
}
