/**
 * The few `semver` functions the library uses, each from its own module: the package root loads
 * every function and the range parser (about 90 modules) on each synth; these load about 10.
 */
export { default as coerce } from "semver/functions/coerce";
export { default as compare } from "semver/functions/compare";
export { default as gt } from "semver/functions/gt";
export { default as gte } from "semver/functions/gte";
export { default as lt } from "semver/functions/lt";
export { default as major } from "semver/functions/major";
export { default as parse } from "semver/functions/parse";
export { default as valid } from "semver/functions/valid";
