// typescript-eslint's recommended rules (the field's default for TypeScript), without type information so
// a lint of the whole tree takes seconds. Formatting is prettier's; `npm run lint` runs both.
import eslint from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

export default tseslint.config(
  { ignores: ["node_modules/", "dist/", "cdktf.out*/", "coverage/", ".gen/", "**/*.d.ts"] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // `const { omitted, ...rest } = x` and `_`-named placeholders are how the code drops a key or an argument
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
    },
  },
  {
    // CommonJS scripts load modules with require, which is what they are
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // the library loads a minor's data and the legacy converter on first use (require), so an app pays only for
    // what it installs (npm run bench)
    files: ["lib/**/*.ts"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // tests and scripts read untyped JSON and YAML (synthesized stacks, CRDs, reports) and load modules afresh
    files: ["test/**/*.ts", "scripts/**/*.ts", "scripts/**/*.cjs"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // Jest globals: the tests, and the recorders Jest loads as setup files
    files: ["test/**/*.ts", "scripts/e2e/record-node-cases.cjs", "scripts/e2e/record-values-cases.cjs"],
    languageOptions: { globals: { ...globals.jest } },
  },
);
