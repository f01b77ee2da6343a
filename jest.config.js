/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // swc strips the types file by file, as tsconfig.json's isolatedModules allows; `npm run typecheck` (tsc) checks them
  transform: {
    "^.+\\.ts$": [
      "@swc/jest",
      {
        jsc: { parser: { syntax: "typescript" }, target: "es2022", transform: { useDefineForClassFields: true } },
        module: { type: "commonjs" },
      },
    ],
    "/node_modules/@marcbachmann/cel-js/.+\\.js$": [
      "@swc/jest",
      { jsc: { parser: { syntax: "ecmascript" }, target: "es2022" }, module: { type: "commonjs" } },
    ],
  },
  // the CEL type checker (@marcbachmann/cel-js) is an ES module: Node 20.19+ / 22.13+ require() it, Jest's module
  // system does not, so Jest gets it as CommonJS
  transformIgnorePatterns: ["/node_modules/(?!@marcbachmann/cel-js/)"],
  // README examples import the package by name
  moduleNameMapper: {
    "^cdktf-eks-karpenter$": "<rootDir>/lib/index.ts",
    "^cdktf-eks-karpenter/cli$": "<rootDir>/lib/cli-api.ts",
  },
  // the second records node-object cases for the e2e agreement stage, only when E2E_RECORD_NODE_CASES is set;
  // the third records Karpenter / KarpenterRelease values cases (values-agreement), only when E2E_RECORD_VALUES_CASES is set
  setupFilesAfterEnv: [
    "<rootDir>/test/setup.ts",
    "<rootDir>/scripts/e2e/record-node-cases.cjs",
    "<rootDir>/scripts/e2e/record-values-cases.cjs",
  ],
  // a temp directory per run for the folders cdktf's Testing.app() leaves behind, removed at the end
  globalSetup: "<rootDir>/test/global-setup.cjs",
  globalTeardown: "<rootDir>/test/global-teardown.cjs",
  // Jest's default leaves a core to its parent process, which only collects results: on 2 cores that
  // ran every file in one process; a worker per core halves the suite's wall time there
  maxWorkers: "100%",
  // a skipped test says why at the end of the run, and fails it under CI=true
  reporters: ["default", "<rootDir>/test/skip-reporter.cjs"],
};
