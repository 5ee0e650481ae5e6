/**
 * The deployment files (Dockerfile, deploy/compose.yaml, deploy/estate-content.service and its
 * environment file) checked without a container engine or systemd: their settings are the ones
 * src/config.ts reads and accepts, and their command lines are run as they are written against the
 * built dist/: the image's CMD with the image's environment and its HEALTHCHECK command (exit 0
 * while the service answers, not 0 once it has stopped), and the unit's ExecStart with the unit's
 * environment. On an embedded database, or on a throwaway PostgreSQL database with
 * TEST_DATABASE_URL (the compose and systemd setups).
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { loadConfig } from '../../src/config.js';
import { freePort, waitForPort } from '../helpers/net.js';
import { prepareDatabase, projectRoot } from '../helpers/processes.js';
import { closeAfterFile } from '../helpers/teardown.js';

const run = promisify(execFile);
const read = (file: string) => fs.readFileSync(path.join(projectRoot, file), 'utf8');

/** Every environment variable src/config.ts reads: `env.NAME` and `helper(env, 'NAME', ...)`. */
const CONFIG_VARIABLES = new Set([...read('src/config.ts').matchAll(/\benv(?:\.|, ')([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]!));
/** Node's own, not the service's. */
const NODE_VARIABLES = new Set(['NODE_ENV']);

// --- Dockerfile ---------------------------------------------------------------------------------

interface Instruction {
  keyword: string;
  args: string;
}

/** Dockerfile instructions, continuation lines joined, comments dropped. */
function parseDockerfile(text: string): Instruction[] {
  const logical: string[] = [];
  let current = '';
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line) && current === '') continue;
    if (/\\\s*$/.test(line)) {
      current += line.replace(/\\\s*$/, ' ');
      continue;
    }
    current += line;
    if (current.trim() !== '') logical.push(current.trim());
    current = '';
  }
  return logical.map((line) => {
    const [, keyword, args] = /^(\S+)\s*(.*)$/.exec(line)!;
    return { keyword: keyword!.toUpperCase(), args: args!.trim() };
  });
}

/** The stages of a Dockerfile: the instructions after each FROM. */
function stages(instructions: Instruction[]): { from: string; name?: string; body: Instruction[] }[] {
  const result: { from: string; name?: string; body: Instruction[] }[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [image, as, name] = instruction.args.split(/\s+/);
      result.push({ from: image!, ...(as?.toUpperCase() === 'AS' ? { name: name! } : {}), body: [] });
    } else {
      result.at(-1)?.body.push(instruction);
    }
  }
  return result;
}

/** ENV a=b c=d (and the old `ENV a b`) as a map. */
function envOf(body: Instruction[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { keyword, args } of body) {
    if (keyword !== 'ENV') continue;
    const pairs = [...args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S*)/g)];
    for (const [, name, value] of pairs) env[name!] = value!.replace(/^"|"$/g, '');
  }
  return env;
}

/** CMD ["a", "b"]: exec form only (no shell in between, so signals reach node). */
function execForm(args: string): string[] {
  const parsed = JSON.parse(args) as unknown;
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string')) throw new Error(`not an exec form: ${args}`);
  return parsed as string[];
}

// --- systemd unit -------------------------------------------------------------------------------

/** [Section] Key=Value lines; a key may repeat. */
function parseUnit(text: string): Record<string, [string, string][]> {
  const sections: Record<string, [string, string][]> = {};
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      section = header[1]!;
      sections[section] = [];
      continue;
    }
    const eq = line.indexOf('=');
    sections[section]!.push([line.slice(0, eq), line.slice(eq + 1)]);
  }
  return sections;
}

/** KEY=value lines of an EnvironmentFile (comments and blank lines skipped). */
function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    env[line.slice(0, eq)] = line.slice(eq + 1).replace(/^"(.*)"$/, '$1');
  }
  return env;
}

// --- running commands ---------------------------------------------------------------------------

/** The environment of a process started by the image or the unit: theirs, not this test runner's. */
function baseEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: os.tmpdir(), LANG: 'C.UTF-8' };
}

interface Running {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | string | null>;
}

function start(argv: string[], env: NodeJS.ProcessEnv): Running {
  const child = spawn(argv[0]!, argv.slice(1), { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  closeAfterFile(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  return { child, output: () => out, exited };
}

async function listening(server: Running, port: number): Promise<void> {
  const died = server.exited.then((code) => {
    throw new Error(`exited (${code}) before listening:\n${server.output()}`);
  });
  died.catch(() => {});
  await Promise.race([waitForPort(port, 90_000), died]);
}

/** Exit code of a command run to its end. */
async function exitCode(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  try {
    await run(argv[0]!, argv.slice(1), { cwd: projectRoot, env, timeout: 20_000 });
    return 0;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'number' ? code : -1;
  }
}

type DatabaseEnv = { DATABASE_URL?: string; DATA_DIR: string };
let prepared: Promise<DatabaseEnv> | undefined;

/**
 * The database the started processes get, one for the file (each process has stopped before the
 * next starts): a throwaway PostgreSQL database (TEST_DATABASE_URL) or an embedded folder,
 * migrated, with the test fixture in it. An empty folder would load the demo first, which costs a
 * minute on a busy machine and is tested in test/server/first-start.test.ts.
 */
function database(): Promise<DatabaseEnv> {
  prepared ??= (async () => {
    const db = await prepareDatabase();
    closeAfterFile(() => db.destroy());
    if (db.env.DATA_DIR) return { DATA_DIR: db.env.DATA_DIR };
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-deploy-data-'));
    closeAfterFile(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    return { DATABASE_URL: db.env.DATABASE_URL!, DATA_DIR: dataDir };
  })();
  return prepared;
}

// --- the tests ----------------------------------------------------------------------------------

const dockerfile = parseDockerfile(read('Dockerfile'));
const dockerStages = stages(dockerfile);
const runtime = dockerStages.at(-1)!;
const runtimeEnv = envOf(runtime.body);
const last = (keyword: string) => runtime.body.filter((i) => i.keyword === keyword).at(-1);
const ARGS = Object.fromEntries(dockerfile.filter((i) => i.keyword === 'ARG').map((i) => i.args.split('=') as [string, string]));
const image = (from: string) => from.replace(/^\$\{(\w+)\}$/, (_, name: string) => ARGS[name] ?? from);

describe('deployment files', () => {
  beforeAll(() => {
    // The same build the image's build stage runs (npm run build), skipped when dist/ is fresh.
    const build = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: projectRoot, encoding: 'utf8' });
    expect(build.status, build.stderr).toBe(0);
  }, 240_000);

  describe('Dockerfile', () => {
    it('builds in one stage and runs on Node 24 in another, as a user other than root', () => {
      expect(dockerStages.length).toBeGreaterThanOrEqual(2);
      for (const stage of dockerStages) expect(image(stage.from)).toMatch(/^node:24([.-]|$)/);
      const build = dockerStages.find((s) => s.body.some((i) => i.keyword === 'RUN' && /npm run build/.test(i.args)));
      expect(build, 'a stage runs npm run build').toBeDefined();
      expect(build).not.toBe(runtime);
      // Production dependencies only, and dist/ from the build stage.
      expect(runtime.body.some((i) => i.keyword === 'RUN' && /npm ci\b.*--omit=dev/.test(i.args))).toBe(true);
      expect(runtime.body.some((i) => i.keyword === 'COPY' && i.args.includes(`--from=${build!.name}`) && /\bdist\/?\s/.test(i.args))).toBe(true);
      const user = last('USER')?.args;
      expect(user).toBeDefined();
      expect(['root', '0', '0:0']).not.toContain(user);
      expect(execForm(last('CMD')!.args)).toEqual(['node', 'dist/server.js']);
      expect(last('HEALTHCHECK')?.args).toMatch(/\/health/);
    });

    it('sets only variables the service reads, with values it accepts, and exposes the port it listens on', () => {
      for (const name of Object.keys(runtimeEnv)) {
        expect(CONFIG_VARIABLES.has(name) || NODE_VARIABLES.has(name), name).toBe(true);
      }
      const config = loadConfig(runtimeEnv);
      expect(config.host).toBe('0.0.0.0'); // reachable from outside the container
      expect(last('EXPOSE')?.args.split(/\s+/)).toContain(String(config.port));
      expect(runtimeEnv.DATA_DIR && last('VOLUME')?.args).toContain(runtimeEnv.DATA_DIR);
    });

    it('copies into the build context only what its COPY lines need (.dockerignore)', () => {
      const rules = read('.dockerignore')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '' && !l.startsWith('#'));
      expect(rules[0]).toBe('*'); // everything out, then the exceptions
      const allowed = rules.filter((r) => r.startsWith('!')).map((r) => r.slice(1).replace(/\/$/, ''));
      const sources = dockerfile
        .filter((i) => i.keyword === 'COPY' && !i.args.startsWith('--from'))
        .flatMap((i) => i.args.split(/\s+/).slice(0, -1));
      for (const source of sources) {
        const clean = source.replace(/\/$/, '');
        expect(allowed.some((a) => clean === a || clean.startsWith(`${a}/`)), source).toBe(true);
        expect(fs.existsSync(path.join(projectRoot, clean)), source).toBe(true);
      }
      for (const kept of ['node_modules', 'dist', 'data', '.git']) expect(allowed).not.toContain(kept);
    });

    it('needs no dev dependency at run time: every package dist/ imports is a production dependency', () => {
      const pkg = JSON.parse(read('package.json')) as { dependencies: Record<string, string> };
      const builtins = new Set(builtinModules);
      const missing = new Set<string>();
      const seen = new Set<string>();
      const walk = (dir: string): void => {
        for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
          const file = path.join(dir, entry.name);
          if (entry.isDirectory()) walk(file);
          else if (entry.name.endsWith('.js')) {
            const text = fs.readFileSync(file, 'utf8');
            const specifiers = [
              ...text.matchAll(/^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gm),
              ...text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
              ...text.matchAll(/\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g),
            ].map((m) => m[1]!);
            for (const specifier of specifiers) {
              if (specifier.startsWith('.') || specifier.startsWith('node:') || builtins.has(specifier)) continue;
              const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
              seen.add(name);
              if (!(name in pkg.dependencies)) missing.add(`${name} (${path.relative(projectRoot, file)})`);
            }
          }
        }
      };
      walk(path.join(projectRoot, 'dist'));
      expect([...seen]).toEqual(expect.arrayContaining(['fastify', 'kysely', 'pg', '@electric-sql/pglite']));
      expect([...missing]).toEqual([]);
    });

    it('runs its CMD with its environment; the HEALTHCHECK command passes while it serves and fails once it stopped', async () => {
      const port = await freePort();
      const env = { ...baseEnv(), ...runtimeEnv, ...(await database()), PORT: String(port), LOG_LEVEL: 'warn' };
      const cmd = execForm(last('CMD')!.args);
      const health = execForm(last('HEALTHCHECK')!.args.replace(/^(--\S+\s+)*CMD\s+/, ''));
      expect(cmd[0]).toBe('node');
      expect(health[0]).toBe('node');
      const server = start([process.execPath, ...cmd.slice(1)], env);
      await listening(server, port);
      expect(await exitCode([process.execPath, ...health.slice(1)], env), server.output()).toBe(0);
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      expect(await res.json()).toEqual({ status: 'ok' });

      server.child.kill((last('STOPSIGNAL')?.args ?? 'SIGTERM') as NodeJS.Signals);
      expect(await server.exited, server.output()).toBe(0);
      expect(await exitCode([process.execPath, ...health.slice(1)], env)).not.toBe(0);
    }, 180_000);
  });

  describe('systemd unit (deploy/estate-content.service)', () => {
    const unit = parseUnit(read('deploy/estate-content.service'));
    const service = unit.Service!;
    const value = (key: string) => service.filter(([k]) => k === key).map(([, v]) => v);
    const unitEnv = Object.fromEntries(value('Environment').map((v) => v.split(/=(.*)/s).slice(0, 2) as [string, string]));
    const envFile = parseEnvFile(read('deploy/estate-content.env'));

    it('runs node on the built server as its own user, restarts on failure and is hardened', () => {
      expect(value('ExecStart')).toEqual(['/usr/bin/node /opt/estate-content/dist/server.js']);
      expect(value('User')[0]).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(value('User')[0]).not.toBe('root');
      expect(value('Restart')).toEqual(['on-failure']);
      expect(value('EnvironmentFile')).toHaveLength(1);
      expect(value('NoNewPrivileges')).toEqual(['true']);
      expect(value('ProtectSystem')).toEqual(['strict']);
      // The embedded database's folder is the one writable place.
      expect(value('ReadWritePaths').join(' ').split(/\s+/)).toContain(unitEnv.DATA_DIR);
      expect(unit.Install?.some(([k, v]) => k === 'WantedBy' && v === 'multi-user.target')).toBe(true);
    });

    it('sets only variables the service reads, with values it accepts', () => {
      for (const name of [...Object.keys(unitEnv), ...Object.keys(envFile)]) {
        expect(CONFIG_VARIABLES.has(name) || NODE_VARIABLES.has(name), name).toBe(true);
      }
      const config = loadConfig({ ...unitEnv, ...envFile });
      expect(config.databaseUrl).toMatch(/^postgres:\/\//);
    });

    it('serves /health when its ExecStart runs with its environment, and stops cleanly on its KillSignal', async () => {
      const port = await freePort();
      const db = await database();
      // The example file's DATABASE_URL names a database of its own; here the throwaway one, or
      // none (embedded) without TEST_DATABASE_URL. WEB_CONCURRENCY=2 then forks two workers on
      // PostgreSQL and runs one process on the embedded database.
      const { DATABASE_URL: _example, ...fileEnv } = envFile;
      const env = { ...baseEnv(), ...unitEnv, ...fileEnv, ...db, PORT: String(port), LOG_LEVEL: 'warn' };
      const argv = value('ExecStart')[0]!.split(/\s+/);
      const local = [process.execPath, ...argv.slice(1).map((arg) => arg.replace(value('WorkingDirectory')[0]!, projectRoot.replace(/\/$/, '')))];
      const server = start(local, env);
      await listening(server, port);
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      expect(res.status, server.output()).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok' });
      server.child.kill((value('KillSignal')[0] ?? 'SIGTERM') as NodeJS.Signals);
      expect(await server.exited, server.output()).toBe(0);
    }, 180_000);
  });

  describe('compose file (deploy/compose.yaml)', () => {
    type Service = {
      image?: string;
      build?: { context: string; dockerfile?: string };
      environment?: Record<string, string | number>;
      depends_on?: Record<string, { condition: string }>;
      ports?: string[];
      healthcheck?: { test: string[] };
      deploy?: { replicas?: number };
    };
    const compose = parseYaml(read('deploy/compose.yaml')) as { services: Record<string, Service> };
    const services = compose.services;
    /** ${NAME:-default} as compose interpolates it with NAME unset. */
    const interpolate = (text: string) => text.replace(/\$\{\w+:-([^}]*)\}/g, '$1');

    it('is YAML with PostgreSQL 15 or 16, Redis and the service built from the Dockerfile', () => {
      expect(services.postgres?.image).toMatch(/^postgres:1[56]\b/);
      expect(services.redis?.image).toMatch(/^redis:/);
      const app = services.service!;
      const dockerfilePath = path.join(projectRoot, 'deploy', app.build!.context, app.build!.dockerfile ?? 'Dockerfile');
      expect(fs.existsSync(dockerfilePath)).toBe(true);
      expect(app.depends_on?.postgres?.condition).toBe('service_healthy');
      expect(app.depends_on?.redis?.condition).toBe('service_healthy');
      expect(services.postgres!.healthcheck).toBeDefined();
      expect(services.redis!.healthcheck).toBeDefined();
    });

    it("gives the service only variables it reads, pointing at compose's PostgreSQL and Redis, with more than one process", () => {
      const env = Object.fromEntries(Object.entries(services.service!.environment!).map(([k, v]) => [k, interpolate(String(v))]));
      for (const name of Object.keys(env)) expect(CONFIG_VARIABLES.has(name) || NODE_VARIABLES.has(name), name).toBe(true);
      const config = loadConfig(env);
      expect(new URL(config.databaseUrl!).hostname).toBe('postgres');
      expect(new URL(config.redisUrl!).hostname).toBe('redis');
      // The database's user, password and name are the ones the PostgreSQL container creates.
      const pgEnv = Object.fromEntries(Object.entries(services.postgres!.environment!).map(([k, v]) => [k, interpolate(String(v))]));
      const url = new URL(config.databaseUrl!);
      expect([url.username, url.password, url.pathname.slice(1)]).toEqual([pgEnv.POSTGRES_USER, pgEnv.POSTGRES_PASSWORD, pgEnv.POSTGRES_DB]);
      expect(Math.max(config.webConcurrency, services.service!.deploy?.replicas ?? 1)).toBeGreaterThanOrEqual(2);
      // The published port leads to the port the image listens on.
      const imagePort = loadConfig({ ...runtimeEnv, ...env }).port;
      expect(services.service!.ports?.some((p) => p.endsWith(`:${imagePort}`))).toBe(true);
    });
  });
});
