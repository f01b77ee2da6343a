/*
 * How large a Kubernetes object may be: the API server and etcd refuse a request above their limits, so an object of
 * more JSON than that can never be applied, whatever else is right about it.
 */

/** The most bytes of JSON the API server takes in one request (MaxRequestBodyBytes, k8s.io/apiserver v0.36.3 pkg/server/config.go:474). */
export const API_SERVER_MAX_BODY_BYTES = 3 * 1024 * 1024;

/** The most bytes etcd takes in one request by default (DefaultMaxRequestBytes, go.etcd.io/etcd/server/v3 v3.6.8 embed/config.go:67). */
export const ETCD_MAX_REQUEST_BYTES = 1.5 * 1024 * 1024;

/** `n` bytes in MiB with one decimal, as the messages write sizes: `3.0 MiB`. */
export const mib = (n: number): string => `${(n / (1024 * 1024)).toFixed(1)} MiB`;

/**
 * How many bytes of JSON `value` takes at least: strings, numbers, booleans and null as JSON writes them; a token or
 * another non-plain object counts as nothing (its value is not known at synth), and so does an undefined item or hole
 * of a list (the list checks refuse it, LIST_ITEM_MISSING, which says more). Iterative, and it stops once past `limit`,
 * so that even a value holding itself ends.
 */
export function jsonBytesAtLeast(value: unknown, limit: number): number {
  let bytes = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && bytes <= limit) {
    const v = stack.pop();
    if (typeof v === "string") bytes += Buffer.byteLength(JSON.stringify(v));
    else if (typeof v === "number" || typeof v === "boolean") bytes += String(v).length;
    else if (v === null) bytes += 4;
    else if (Array.isArray(v)) {
      bytes += 2 + Math.max(0, v.length - 1);
      for (const x of v) if (x !== undefined) stack.push(x);
    } else if (
      typeof v === "object" &&
      (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null)
    ) {
      const entries = Object.entries(v as object).filter(([, x]) => x !== undefined);
      bytes += 2 + Math.max(0, entries.length - 1);
      for (const [k, x] of entries) {
        bytes += Buffer.byteLength(JSON.stringify(k)) + 1;
        stack.push(x);
      }
    }
  }
  return bytes;
}
