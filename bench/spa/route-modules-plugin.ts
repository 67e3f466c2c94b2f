import { createRequire } from "node:module";
import { relative, resolve, sep } from "node:path";
import { deadCodeElimination, findReferencedIdentifiers } from "babel-dead-code-elimination";
import type { Plugin } from "vite";

/**
 * Rewrites each app route module for the SPA-mode bench build (never the real build):
 *
 * - removes the server-only exports React Router refuses with `ssr: false` (`loader`, `action`,
 *   `middleware`, `headers`), then the code and imports only they used (the same dead-code
 *   elimination React Router applies to client bundles), so no server module is bundled;
 * - where a `loader` was removed, adds a `clientLoader` that fetches the same route's data from
 *   the running app (server-data.ts): the components and their data stay exactly the same.
 *
 * Actions are gone: the bench only loads pages. Babel comes with @react-router/dev.
 */
const SERVER_EXPORTS = new Set(["loader", "action", "middleware", "headers"]);
const require = createRequire(import.meta.url);
const serverDataModule = resolve(import.meta.dirname, "server-data.ts");

interface Babel {
  parseSync(code: string, options: Record<string, unknown>): BabelFile;
  traverse(ast: BabelFile, visitors: Record<string, (path: BabelPath) => void>): void;
  transformFromAstSync(ast: BabelFile, code: string, options: Record<string, unknown>): { code?: string | null } | null;
}
type BabelFile = Parameters<typeof deadCodeElimination>[0];
interface BabelPath {
  node: {
    type: string;
    declaration?: { type: string; id?: { name: string }; declarations?: { id: { type: string; name?: string } }[] };
    specifiers?: { type: string; exported: { type: string; name?: string } }[];
  };
  remove(): void;
}

export function spaRouteModules({ appDirectory }: { appDirectory: string }): Plugin {
  const babel = require("@babel/core") as Babel;
  const routesDir = resolve(appDirectory, "routes") + sep;
  const rootModule = resolve(appDirectory, "root.tsx");

  return {
    name: "bench-spa:route-modules",
    transform(code, id) {
      const file = id.split("?")[0]!;
      if (file !== rootModule && !file.startsWith(routesDir)) return;
      if (!/\.tsx?$/.test(file)) return;

      const ast = babel.parseSync(code, { filename: file, configFile: false, babelrc: false, sourceType: "module" });
      const referenced = findReferencedIdentifiers(ast);
      const removed = new Set<string>();
      babel.traverse(ast, {
        ExportNamedDeclaration(path) {
          const { declaration, specifiers } = path.node;
          const names = [
            declaration?.id?.name,
            ...(declaration?.declarations ?? []).map((d) => d.id.name),
            ...(specifiers ?? []).map((s) => s.exported.name),
          ].filter((name): name is string => Boolean(name));
          if (names.length === 0 || !names.some((name) => SERVER_EXPORTS.has(name))) return;
          if (!names.every((name) => SERVER_EXPORTS.has(name))) {
            throw new Error(`${file}: an export statement mixes server and client exports (${names.join(", ")})`);
          }
          for (const name of names) removed.add(name);
          path.remove();
        },
      });
      if (removed.size === 0) return;
      deadCodeElimination(ast, referenced);
      let out = babel.transformFromAstSync(ast, code, { configFile: false, babelrc: false, sourceMaps: false })?.code;
      if (out == null) throw new Error(`${file}: Babel gave no code`);

      if (removed.has("loader")) {
        const routeId = relative(appDirectory, file)
          .replace(/\.tsx?$/, "")
          .split(sep)
          .join("/");
        out +=
          `\nimport { serverData as __benchServerData } from ${JSON.stringify(serverDataModule)};\n` +
          `export function clientLoader(args) { return __benchServerData(args, ${JSON.stringify(routeId)}); }\n`;
      }
      return { code: out, map: null };
    },
  };
}
