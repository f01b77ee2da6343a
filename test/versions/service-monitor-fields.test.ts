import * as script from "../../scripts/service-monitor-fields";
import { COMMIT, endpointFields } from "../../scripts/service-monitor-fields";
import { snapshotTableTest } from "./go-module-table";

/*
 * The committed ServiceMonitor Endpoint fields (lib/versions/data/service-monitor-endpoint.json) are what
 * scripts/service-monitor-fields.ts reads from the prometheus-operator CRD in a git snapshot at its COMMIT. Without the
 * snapshot (CI has none), the committed table is held to what the generator guarantees, and the title says so.
 */

describe("service-monitor-endpoint.json", () => {
  snapshotTableTest(script, "scripts/service-monitor-fields.ts (npm run service-monitor-fields)", (t) => {
    expect(t.commit).toBe(COMMIT);
    const names = Object.keys(t.fields);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(["interval", "scrapeTimeout", "scheme", "port", "path"]));
    for (const f of Object.values(t.fields) as { type: string }[]) expect(typeof f.type).toBe("string");
  });

  test("reads the v1 Endpoint's properties: type, IntOrString, enum and pattern", () => {
    const crd = [
      "spec:",
      "  versions:",
      "  - name: v1",
      "    schema:",
      "      openAPIV3Schema:",
      "        properties:",
      "          spec:",
      "            properties:",
      "              endpoints:",
      "                items:",
      "                  properties:",
      "                    scheme: {type: string, enum: [http, https]}",
      "                    interval: {type: string, pattern: '^(0|([0-9]+)s)$'}",
      "                    targetPort: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string}]}",
      "                    honorLabels: {type: boolean}",
    ].join("\n");
    expect(endpointFields(crd)).toEqual({
      honorLabels: { type: "boolean" },
      interval: { type: "string", pattern: "^(0|([0-9]+)s)$" },
      scheme: { type: "string", enum: ["http", "https"] },
      targetPort: { type: "int-or-string" },
    });
  });
  test("a CRD without the Endpoint's properties is an error, not an empty table", () => {
    expect(() => endpointFields("spec: {versions: [{name: v1, schema: {openAPIV3Schema: {}}}]}")).toThrow(
      /no v1 spec\.endpoints\.items\.properties/,
    );
  });
});
