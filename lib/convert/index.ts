export * from "./types";
export * from "./legacy-manifest-error";
export * from "./convert-legacy-manifests";
export * from "./render";
