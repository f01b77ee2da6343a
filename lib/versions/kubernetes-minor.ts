/** The minor (`1.33`) of a literal Kubernetes version (`1.33`, `v1.33.4`), or undefined for anything else. */
export function kubernetesMinor(version: string | undefined): string | undefined {
  return typeof version === "string" ? /^v?(1\.\d+)(?:\.\d+)?$/.exec(version.trim())?.[1] : undefined;
}

/** `1.27-1.33, 1.35` for a list of `1.x` minors, in numeric order with gaps shown. */
export function minorRanges(minors: readonly string[]): string {
  const n = minors.map((m) => Number(m.split(".")[1])).sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < n.length;) {
    let j = i;
    while (j + 1 < n.length && n[j + 1] === n[j] + 1) j++;
    parts.push(j === i ? `1.${n[i]}` : `1.${n[i]}-1.${n[j]}`);
    i = j + 1;
  }
  return parts.join(", ");
}
