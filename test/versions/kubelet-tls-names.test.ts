import { generate, parseCipherFlag, render, TABLE_FILE } from "../../scripts/kubelet-tls-names";
import { kubeletTlsNames } from "../../lib/versions/kubelet-tls-names";
import { generatedTableTest } from "./go-module-table";

/*
 * The committed table of the kubelet's TLS names (lib/versions/data/kubelet-tls-names.json) is what the script
 * generates from component-base's ciphersuites_flag.go and Go's crypto/tls. Without Go or the module, SKIP naming it.
 */
describe("kubelet-tls-names.json", () => {
  generatedTableTest({
    file: TABLE_FILE,
    script: "scripts/kubelet-tls-names.ts (npm run kubelet-tls)",
    modules: "the Go module k8s.io/component-base@v0.36.3 and a Go toolchain",
    generate,
    render,
  });

  test("holds Go's suite names, component-base's aliases and the four version names", () => {
    const t = kubeletTlsNames();
    expect(t.cipherSuites).toContain("TLS_AES_128_GCM_SHA256");
    expect(t.cipherSuites).toContain("TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305");
    expect(t.insecureCipherSuites).toContain("TLS_RSA_WITH_RC4_128_SHA");
    expect(t.tlsVersions).toEqual(["VersionTLS10", "VersionTLS11", "VersionTLS12", "VersionTLS13"]);
  });

  test("the parser stops when the names no longer come from where it reads them", () => {
    expect(() =>
      parseCipherFlag('var versions = map[string]uint16{\n\t"VersionTLS12": tls.VersionTLS12,\n}\n'),
    ).toThrow(/no aliases or versions found/);
  });
});
