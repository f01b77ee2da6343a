import type * as Yaml from "yaml";

let loaded: typeof Yaml | undefined;

/**
 * The `yaml` package, loaded on first use: only converting manifests reads or writes YAML, so a
 * synth that converts nothing does not load its 70 modules.
 */
export function yaml(): typeof Yaml {
  return (loaded ??= require("yaml") as typeof Yaml);
}
