import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "build",
      "build-*",
      ".react-router",
      "node_modules",
      "data",
      "test-results",
      "playwright-report",
      "bench/results",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-explicit-any": "off",
      "no-console": "off",
    },
  },
  {
    // One import style (docs/contributing.md): a module outside its own folder is reached by its
    // alias (#app/*, #contract/*, #provider/*), so a path says where a file lives, not how far up.
    files: ["app/**/*.{ts,tsx}", "contract/**/*.ts", "provider/**/*.ts"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^\\.\\./(?!.*package\\.json$)",
              message: "Import it through its alias: #app/…, #contract/… or #provider/….",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["bench/**/*.ts", "server/**/*.ts", "server.ts", "tests/**/*.ts", "**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(\\.\\./)+(app|contract|provider)/",
              message: "Import it through its alias: #app/…, #contract/… or #provider/….",
            },
          ],
        },
      ],
    },
  },
  {
    // Each worker's own app is reached through the support module's `test` (ADR 0026).
    files: ["tests/e2e/**/*.spec.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@playwright/test",
              importNames: ["test", "expect"],
              message: "Import test and expect from ./support/test.ts, which starts this worker's app.",
            },
          ],
          patterns: [
            {
              regex: "^(\\.\\./)+(app|contract|provider)/",
              message: "Import it through its alias: #app/…, #contract/… or #provider/….",
            },
          ],
        },
      ],
    },
  },
);
