import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { load } from "js-yaml";
import { describe, expect, it } from "vitest";
import { AppEnv, readAppEnv } from "#app/server/env.server.ts";
import { ProviderEnv, readProviderEnv } from "#provider/env.ts";

/**
 * No Docker engine runs here, so compose.yaml is checked against what it starts: the Dockerfile's
 * final stage (the files its commands run), and the settings schemas both processes check at
 * start-up (each service's environment must pass them). .env.example and the README name every setting.
 */
const root = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

interface Service {
  build?: string;
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas?: number };
  healthcheck?: { test: string[] };
  networks?: string[];
  ports?: string[];
  volumes?: string[];
}
const compose = load(read("compose.yaml")) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
  networks: Record<string, { ipam: { config: { subnet: string }[] } }>;
  configs: Record<string, { content: string }>;
};
const { db, provider, app, proxy } = compose.services as Record<string, Service>;

/** Compose's `${NAME:?message}` and `${NAME:-default}` as an operator's environment fills them. */
function interpolate(env: Record<string, string>, given: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    out[key] = String(value).replace(
      /\$\{(\w+)(?::([?-])([^}]*))?\}/g,
      (_m, name: string, op?: string, arg?: string) => {
        if (given[name] !== undefined) return given[name]!;
        if (op === "?") throw new Error(`compose refuses to start without ${name}: ${arg}`);
        return op === "-" ? arg! : "";
      },
    );
  }
  return out;
}
const operator = {
  SESSION_SECRET: "s".repeat(44),
  PROVIDER_SECRET: "p".repeat(44),
  POSTGRES_PASSWORD: "pw",
  SITE_ADDRESS: "putseller.example.com",
};

/** The Dockerfile's final stage: what it copies into /app and the command it runs. */
function finalStage() {
  const text = read("Dockerfile").replace(/\\\n/g, " ");
  const stages = text.split(/^FROM /m);
  const lines = stages
    .at(-1)!
    .split("\n")
    .map((l) => l.trim());
  const copied = lines
    .filter((l) => l.startsWith("COPY "))
    .flatMap((l) => l.slice(5).trim().split(/\s+/).slice(0, -1))
    .filter((part) => !part.startsWith("--from="));
  const cmd = JSON.parse(lines.find((l) => l.startsWith("CMD "))!.slice(4)) as string[];
  return { copied, cmd };
}

describe("compose.yaml", () => {
  it("runs PostgreSQL, one provider, two app replicas and a proxy in front, with data on volumes", () => {
    expect(db!.image).toMatch(/^postgres:/);
    expect(db!.volumes).toContain("db-data:/var/lib/postgresql/data");
    expect(app!.deploy?.replicas).toBe(2);
    expect(proxy!.ports).toEqual(expect.arrayContaining(["443:443"]));
    expect(Object.keys(compose.volumes)).toEqual(expect.arrayContaining(["db-data", "caddy-data"]));
    // The proxy balances over every replica by name, and only the proxy publishes a port.
    expect(compose.configs.caddyfile!.content).toMatch(/dynamic a app 3000/);
    for (const service of [db, provider, app]) expect(service!.ports).toBeUndefined();
  });

  it("builds the app and provider from this Dockerfile and runs files the image contains", () => {
    const { copied, cmd } = finalStage();
    expect(app!.build).toBe(".");
    expect(provider!.build).toBe(".");
    expect(app!.command).toBeUndefined(); // the image's CMD: node server.ts
    expect(cmd).toEqual(["node", "server.ts"]);
    const [runtime, script] = provider!.command!;
    expect(runtime).toBe("node");
    expect(existsSync(path.join(root, script!))).toBe(true);
    expect(copied.some((dir) => script!.startsWith(`${dir.replace(/\/$/, "")}/`))).toBe(true);
  });

  it("starts each part once what it needs is healthy", () => {
    expect(provider!.depends_on?.db?.condition).toBe("service_healthy");
    expect(app!.depends_on?.provider?.condition).toBe("service_healthy");
    expect(proxy!.depends_on?.app?.condition).toBe("service_healthy");
    expect(db!.healthcheck?.test.join(" ")).toMatch(/pg_isready/);
    expect(provider!.healthcheck?.test.join(" ")).toMatch(/127\.0\.0\.1:8000\/healthz/);
    // The app's check is the image's own HEALTHCHECK on /healthz.
    expect(read("Dockerfile")).toMatch(/HEALTHCHECK[\s\S]*127\.0\.0\.1:3000\/healthz/);
  });

  it("refuses to start without the secrets, and takes them from the operator's environment", () => {
    for (const name of ["SESSION_SECRET", "PROVIDER_SECRET", "POSTGRES_PASSWORD"]) {
      const without = { ...operator, [name]: undefined } as unknown as Record<string, string>;
      const all = { ...db!.environment, ...provider!.environment, ...app!.environment };
      expect(() => interpolate(all, without)).toThrow(name);
    }
    expect(read("compose.yaml")).not.toMatch(/SECRET:\s*["']?[A-Za-z0-9+/=]{16,}/);
  });

  it("gives each process settings its own start-up check accepts, pointing at the other services", () => {
    const providerEnv = readProviderEnv(interpolate(provider!.environment!, operator));
    expect(providerEnv.DATABASE_URL).toBe("postgres://putseller:pw@db:5432/putseller");
    expect(providerEnv.PROVIDER_HOST).toBe("0.0.0.0");
    expect(providerEnv.SEED_DEMO).toBe(false);
    expect(providerEnv.APP_URL).toBe("https://putseller.example.com");
    // The app replicas' addresses change; the provider believes their X-Forwarded-For by subnet.
    expect(providerEnv.PROVIDER_TRUSTED_PROXIES).toBe(compose.networks.backend!.ipam.config[0]!.subnet);

    const appEnv = readAppEnv(interpolate(app!.environment!, operator));
    expect(appEnv.PROVIDER_URL).toBe(`http://provider:${providerEnv.PROVIDER_PORT}`);
    expect(appEnv.NODE_ENV).toBe("production");
    expect(appEnv.TRUST_PROXY).toBe("uniquelocal");
  });

  it("names only settings that exist", () => {
    const known = new Set([...Object.keys(AppEnv.shape), ...Object.keys(ProviderEnv.shape)]);
    for (const service of [provider, app]) {
      for (const key of Object.keys(service!.environment!)) expect(known, key).toContain(key);
    }
  });
});

describe("every setting is documented", () => {
  const settings = [...new Set([...Object.keys(AppEnv.shape), ...Object.keys(ProviderEnv.shape)])];

  it(".env.example lists every setting", () => {
    const example = read(".env.example");
    const missing = settings.filter((key) => !new RegExp(`^#? ?${key}=`, "m").test(example));
    expect(missing).toEqual([]);
  });

  it("the README's settings table names every setting", () => {
    const readme = read("README.md");
    const missing = settings.filter((key) => !readme.includes(`\`${key}\``));
    expect(missing).toEqual([]);
  });
});
