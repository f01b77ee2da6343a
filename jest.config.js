/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // isolatedModules in tsconfig.json makes ts-jest transpile file by file (no type check): `npm run typecheck` does that
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }] },
  // README examples import the package by name
  moduleNameMapper: { "^cdktf-eks-karpenter$": "<rootDir>/lib/index.ts" },
  setupFilesAfterEnv: ["<rootDir>/test/setup.ts"],
};
