import { readFileSync } from "node:fs";
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

const aliasOnly = {
  regex: "^\\.\\./(?!.*package\\.json$)",
  message: "Import it through its alias: #app/…, #contract/… or #provider/….",
};
const notProvider = {
  regex: "^#provider/|(^|/)provider/",
  message: "The app never imports the provider: it calls it through the contract (docs/architecture.md).",
};
const notApp = {
  regex: "^#app/|(^|/)app/",
  message: "The provider never imports the app (docs/architecture.md).",
};
const notRoutes = {
  regex: "^#app/routes/|^\\./routes/|(^|/)routes/",
  message: "Shared code never imports a screen: move what both need into the shared folder (docs/contributing.md).",
};
// Stores own the SQL (issue 44, ADR 0043): a provider route adapts the contract to a store or use case.
const noSqlInRoutes = {
  regex: "^kysely$",
  importNames: ["sql"],
  message: "Provider routes hold no SQL: put the query in a store (provider/store/ or a domain's store.ts).",
};
// The offline module has one face a runtime (docs/decisions/0099-offline-as-one-module.md): the
// rest of the app reaches it through those, never its inner files.
const offlineFaces = {
  regex: "^#app/offline/(?!(index|index\\.server|ui|worker)\\.tsx?$)",
  message: "Import the offline module through its faces: #app/offline/index.ts, ui.tsx, index.server.ts or worker.ts.",
};
const contractOnly = {
  regex: "^(?!zod($|/)|#contract/|\\./)",
  message: "The contract depends on zod alone (docs/architecture.md).",
};

/** Kysely's calls that start a query or a transaction (db.selectFrom(...), eb's selectFrom(...)). */
const QUERY_STARTS =
  "/^(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|transaction|executeQuery)$/";

/**
 * Typed URLs (docs/decisions/0100-typed-urls-checked-by-satisfies.md): a string or template that starts
 * with a route's first segment in app/routes.ts is a route path, and must be written
 * `"/x" satisfies Href` (HrefWithSearch, RoutePattern; app/lib/href.ts) so the type check holds it to
 * the route table. The segments are read from app/routes.ts itself, so a new route is policed the day it lands.
 */
const ROUTE_SEGMENTS = [
  ...new Set(
    [...readFileSync(`${import.meta.dirname}/app/routes.ts`, "utf8").matchAll(/\broute\("([^"/:]+)/g)].map((m) => m[1]),
  ),
];
const ROUTE_PATH = new RegExp(`^/(${ROUTE_SEGMENTS.join("|")})(?=$|[/?#])`);
const typedUrls = {
  meta: {
    type: "problem",
    schema: [],
    messages: {
      unchecked:
        "Write the route path as `{{text}}` satisfies Href (HrefWithSearch with a query, RoutePattern for a pattern; #app/lib/href.ts), so renaming the route fails the type check (ADR 0100).",
    },
  },
  create(context) {
    // React Router's href() checks its first argument itself (the server may call it: no bundle cost there).
    const checked = (node) =>
      (node.parent?.type === "CallExpression" &&
        node.parent.callee.name === "href" &&
        node.parent.arguments[0] === node) ||
      (node.parent?.type === "TSSatisfiesExpression" &&
        node.parent.expression === node &&
        node.parent.typeAnnotation.type === "TSTypeReference" &&
        /^(Href|HrefWithSearch|RoutePattern)$/.test(node.parent.typeAnnotation.typeName.name ?? ""));
    const check = (node, text) => {
      if (ROUTE_PATH.test(text) && !checked(node)) context.report({ node, messageId: "unchecked", data: { text } });
    };
    return {
      Literal: (node) => typeof node.value === "string" && check(node, node.value),
      TemplateLiteral: (node) => check(node, node.quasis[0]?.value.cooked ?? ""),
    };
  },
};

/** One no-restricted-imports setting a folder: ESLint keeps only the last setting of a rule for a file. */
function directionRules() {
  const rule = (...patterns) => ({ "no-restricted-imports": ["error", { patterns }] });
  const source = (globs) => ({ files: globs, ignores: ["**/*.test.ts", "**/*.test.tsx"] });
  return [
    { ...source(["app/**/*.{ts,tsx}"]), rules: rule(aliasOnly, notProvider, offlineFaces) },
    {
      ...source(["app/components/**/*.{ts,tsx}", "app/hooks/**/*.ts", "app/lib/**/*.ts", "app/server/**/*.ts"]),
      rules: rule(aliasOnly, notProvider, notRoutes, offlineFaces),
    },
    { ...source(["app/offline/**/*.{ts,tsx}"]), rules: rule(aliasOnly, notProvider, notRoutes) },
    { ...source(["provider/**/*.ts"]), rules: rule(aliasOnly, notApp) },
    { ...source(["provider/routes/**/*.ts"]), rules: rule(aliasOnly, notApp, noSqlInRoutes) },
    { ...source(["contract/**/*.ts"]), rules: rule(aliasOnly, contractOnly) },
  ];
}

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
  // One import style (docs/contributing.md): a module outside its own folder is reached by its alias
  // (#app/*, #contract/*, #provider/*), so a path says where a file lives, not how far up. And the
  // directions that keep the house clean (docs/contributing.md#directions): app and provider never
  // import each other, the contract depends on zod alone, and what screens share never imports a screen.
  ...directionRules(),
  {
    // Stores own the SQL (issue 44, ADR 0043): no query builder call in a provider route either.
    files: ["provider/routes/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: `CallExpression:matches([callee.property.name=${QUERY_STARTS}], [callee.name=${QUERY_STARTS}])`,
          message: "Provider routes hold no SQL: put the query in a store (provider/store/ or a domain's store.ts).",
        },
      ],
    },
  },
  {
    // Typed URLs (ADR 0100). Tests spell the URLs a user types.
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["**/*.test.ts", "**/*.test.tsx", "app/routes.ts"],
    plugins: { putseller: { rules: { "typed-urls": typedUrls } } },
    rules: { "putseller/typed-urls": "error" },
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
