import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';

/**
 * One suffix per role (docs/architecture.md): `@OnJob` handlers live in `*.job.ts` files and nowhere else, and a
 * file with a role suffix exports classes named for it (`webhook-delivery.job.ts` -> `WebhookDeliveryJob`), so
 * a class is found from its name and a file's role from its suffix.
 */
const SRC = resolve(__dirname);

/** The suffixes whose classes carry the role in their name. */
const ROLES = ['job', 'command', 'repository', 'provider', 'service', 'controller'];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

const pascal = (kebab: string) => kebab.replace(/(^|[-.])([a-z0-9])/g, (_m, _s, c: string) => c.toUpperCase());

/** `x.job.ts` holding no @OnJob, and @OnJob outside a `*.job.ts`, as messages. Specs and the decorator aside. */
function misplacedJobs(files: Record<string, string>): string[] {
  return Object.entries(files).flatMap(([path, source]) => {
    const isJob = path.endsWith('.job.ts');
    const hasHandler = /^\s*@OnJob\(/m.test(source);
    if (isJob && !hasHandler) return [`${path}: a *.job.ts without an @OnJob handler`];
    if (!isJob && hasHandler) return [`${path}: an @OnJob handler outside a *.job.ts`];
    return [];
  });
}

/**
 * Exported classes of role-suffixed files whose name is not the file's name in PascalCase, as messages. Case aside:
 * a kebab-case file name cannot spell a brand's capitals (`whatsapp-cloud.provider.ts` holds WhatsAppCloudProvider).
 */
function misnamedClasses(files: Record<string, string>): string[] {
  return Object.entries(files).flatMap(([path, source]) => {
    const match = /^(.+)\.([a-z]+)\.ts$/.exec(basename(path));
    if (!match || !ROLES.includes(match[2])) return [];
    const expected = pascal(`${match[1]}-${match[2]}`);
    const classes = [...source.matchAll(/^export (?:abstract )?class (\w+)/gm)].map((m) => m[1]);
    return classes
      .filter((name) => name.toLowerCase() !== expected.toLowerCase())
      .map((name) => `${path}: ${name}, expected ${expected}`);
  });
}

describe('file roles', () => {
  const files = Object.fromEntries(
    tsFiles(SRC)
      .filter((f) => !/\.spec\.ts$/.test(f) && !f.endsWith('on-job.decorator.ts') && !f.endsWith('job-registry.ts'))
      .map((f) => [relative(SRC, f), readFileSync(f, 'utf8')]),
  );

  it('every @OnJob handler lives in a *.job.ts, and every *.job.ts holds one', () => {
    expect(misplacedJobs(files)).toEqual([]);
  });

  it('a role-suffixed file exports classes named for it', () => {
    expect(misnamedClasses(files)).toEqual([]);
  });

  describe('the checks themselves', () => {
    it('see a handler outside a job file and a job file without one', () => {
      expect(
        misplacedJobs({
          'a/x.service.ts': `class X {\n  @OnJob({ name: JobName.A })\n  run() {}\n}`,
          'a/y.job.ts': `export interface YJobData { id: string }`,
          'a/z.job.ts': `class ZJob {\n  @OnJob({ name: JobName.Z })\n  run() {}\n}`,
        }),
      ).toEqual([
        'a/x.service.ts: an @OnJob handler outside a *.job.ts',
        'a/y.job.ts: a *.job.ts without an @OnJob handler',
      ]);
    });

    it('see a class not named for its file, and leave files without a role suffix alone', () => {
      expect(
        misnamedClasses({
          'a/call-sweeper.job.ts': `export class CallSweeper {}`,
          'a/vapi-voice.provider.ts': `export class VapiVoiceProvider {}`,
          'a/settle-call.command.ts': `export abstract class SettleCallCommand {}\nexport class Other {}`,
          'a/webhook-delivery-slots.ts': `export class Slots {}`,
        }),
      ).toEqual([
        'a/call-sweeper.job.ts: CallSweeper, expected CallSweeperJob',
        'a/settle-call.command.ts: Other, expected SettleCallCommand',
      ]);
    });
  });
});
