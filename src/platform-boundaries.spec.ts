import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The platform layer's boundaries (docs/architecture.md, "Outside platforms"). Code under modules/platforms only
 * translates: what it needs of a domain comes on the row, through a port the domain implements, or as data, so it
 * never imports a domain's service, command, repository or job. The domains never import the platform layer (its
 * modules bind their adapters into the domains' registries). Messaging (the domain and its platforms) never reaches
 * into the voice platforms or the calls' voice port, and the voice side never imports messaging.
 */
const SRC = resolve(__dirname);

/**
 * Domain files platform code may import by value, each a port, a registry it binds or registers with, or plain
 * data and pure functions; anything else of a domain is reached through one of the ports. Besides these: rows
 * (`*.entity`) and the shapes of the routes an ingress serves (`*.dto`, `*.response`) anywhere, a domain's Nest
 * module from a platform module only (to bind into its registry), and type-only imports (erased at build: Nest
 * injects by class, so a type alone cannot reach a service).
 */
const ALLOWED: Record<string, string> = {
  'modules/calls/voice/voice-provider': 'the voice port: VoiceProvider, PlaceCallResult, PlatformEvent',
  'modules/calls/voice/voice-ingress': 'the port voice ingress reports through: VoiceIngress, IngressEvent',
  'modules/calls/voice/voice-platforms': 'the voice registry the voice platform module binds',
  'modules/messaging/chat-agent/chat-platform': 'the chat port: ChatPlatform, and ChatScripts it asks',
  'modules/messaging/chat-agent/chat-platforms': 'the chat registry the chat platform module binds',
  'modules/phone-numbers/voice-platform-numbers': 'the registry number directories register with',
  'modules/assistants/voice-settings': 'the default voice settings (data)',
  'modules/call-outcomes/voicemail-policy': 'the default voicemail policy (data)',
  'modules/call-outcomes/schema-example': 'an example value of a JSON schema (a pure function)',
  'modules/tools/call-tools': "a call's tools as data and their default messages",
  'modules/messaging/chat-agent/hand-off-keywords': 'whole-word matching (a pure function)',
  'modules/messaging/providers/messaging-provider': 'the messaging port: MessagingProvider, SendResult, rejected',
  'modules/messaging/providers/messaging-platforms': 'the messaging registry the messaging platform module binds',
  'modules/messaging/providers/messaging-ingress':
    'the port messaging ingress reports through: MessagingIngress, MessagingIngressEvent',
  'modules/messaging/messaging-credentials': "opens an account's sealed provider token (no rule of messaging)",
  'modules/messaging/template-placeholders': "a template's placeholders (pure functions)",
  'modules/messaging/message-payload': 'the kinds of message content (data and a pure function)',
};

interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? tsFiles(join(dir, e.name))
      : e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts')
        ? [join(dir, e.name)]
        : [],
  );
}

const rel = (path: string) => relative(SRC, path).split(sep).join('/');

/** Every relative import and re-export of the files given as path -> source, as paths of src/ without `.ts`. */
function importsOf(files: Record<string, string>): Import[] {
  return Object.entries(files).flatMap(([path, source]) =>
    [...source.matchAll(/^\s*(?:import|export)\b(\s+type\b)?[^;'"]*?(?:from\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm)].map(
      (m) => ({
        from: rel(path).replace(/\.ts$/, ''),
        to: rel(resolve(dirname(path), m[2])),
        typeOnly: Boolean(m[1]),
      }),
    ),
  );
}

const inPlatforms = (file: string) => file.startsWith('modules/platforms/');
const inDomain = (file: string) => file.startsWith('modules/') && !inPlatforms(file);
const show = ({ from, to }: Import) => `${from} -> ${to}`;

/** Platform code importing a domain file it may not: anything but the allowed list, rows, shapes and types. */
function forbiddenDomainImports(imports: Import[]): string[] {
  return imports
    .filter(({ from, to, typeOnly }) => {
      if (!inPlatforms(from) || !inDomain(to) || typeOnly || to in ALLOWED) return false;
      if (/\.(entity|dto|response)$/.test(to)) return false;
      return !(/\.module$/.test(to) && /\.module$/.test(from));
    })
    .map(show)
    .sort();
}

/** A domain importing the platform layer (which would make the two import each other). */
function domainToPlatforms(imports: Import[]): string[] {
  return imports
    .filter(({ from, to }) => inDomain(from) && inPlatforms(to))
    .map(show)
    .sort();
}

/** Messaging reaching the voice platforms or the calls' voice port, and the voice side importing messaging. */
function messagingAndVoice(imports: Import[]): string[] {
  const voice = (file: string) =>
    file.startsWith('modules/platforms/voice/') || file.startsWith('modules/calls/voice/');
  const messaging = (file: string) =>
    file.startsWith('modules/messaging/') || file.startsWith('modules/platforms/messaging/');
  return imports
    .filter(({ from, to }) => (messaging(from) && voice(to)) || (voice(from) && messaging(to)))
    .map(show)
    .sort();
}

describe('platform boundaries', () => {
  const imports = importsOf(Object.fromEntries(tsFiles(SRC).map((f) => [f, readFileSync(f, 'utf8')])));

  it('platform code imports of a domain only its ports, registries, rows, shapes and the listed data', () => {
    expect(forbiddenDomainImports(imports)).toEqual([]);
  });

  it('no domain imports the platform layer', () => {
    expect(domainToPlatforms(imports)).toEqual([]);
  });

  it('messaging never imports the voice platforms or the voice port, nor they messaging', () => {
    expect(messagingAndVoice(imports)).toEqual([]);
  });

  it('every allowed domain file exists and is imported by platform code (the list holds nothing stale)', () => {
    const used = new Set(imports.filter(({ from }) => inPlatforms(from)).map(({ to }) => to));
    expect(Object.keys(ALLOWED).filter((file) => !used.has(file))).toEqual([]);
  });

  describe('the checks themselves', () => {
    const sources = (files: Record<string, string>) =>
      importsOf(Object.fromEntries(Object.entries(files).map(([path, source]) => [join(SRC, path), source])));

    it('see an adapter or ingress calling into a domain service, command, repository or job', () => {
      const found = sources({
        'modules/platforms/voice/x/x-events.controller.ts': [
          `import { CallEventsService } from '../../../calls/call-events.service';`,
          `import {\n  CallsRepository,\n} from '../../../calls/calls.repository';`,
          `import { CallReportRecoveryJob } from '../../../calls/supervision/call-report-recovery.job';`,
          `export { SendMessageCommand } from '../../../messaging/send-message.command';`,
        ].join('\n'),
        'modules/platforms/chat/x/x-chat-platform.ts': `import { CasesService } from '../../../cases/cases.service';`,
        'modules/platforms/messaging/x/x-webhook.service.ts': [
          `import { DeliveryStatusService } from '../../../messaging/delivery-status.service';`,
          `import { RecordInboundMessageCommand } from '../../../messaging/record-inbound-message.command';`,
          `import { MessagingIngress } from '../../../messaging/providers/messaging-ingress';`,
        ].join('\n'),
      });
      expect(forbiddenDomainImports(found)).toEqual([
        'modules/platforms/chat/x/x-chat-platform -> modules/cases/cases.service',
        'modules/platforms/messaging/x/x-webhook.service -> modules/messaging/delivery-status.service',
        'modules/platforms/messaging/x/x-webhook.service -> modules/messaging/record-inbound-message.command',
        'modules/platforms/voice/x/x-events.controller -> modules/calls/call-events.service',
        'modules/platforms/voice/x/x-events.controller -> modules/calls/calls.repository',
        'modules/platforms/voice/x/x-events.controller -> modules/calls/supervision/call-report-recovery.job',
        'modules/platforms/voice/x/x-events.controller -> modules/messaging/send-message.command',
      ]);
    });

    it('let through ports, rows, shapes, types, and a domain module only into a platform module', () => {
      const found = sources({
        'modules/platforms/voice/x/x-voice.provider.ts': [
          `import { VoiceProvider } from '../../../calls/voice/voice-provider';`,
          `import type { Call } from '../../../calls/call.entity';`,
          `import type { ToolCallReply } from '../../../calls/tool-calls.service';`,
          `import { CallsModule } from '../../../calls/calls.module';`,
        ].join('\n'),
        'modules/platforms/voice/x/x.module.ts': `import { CallsModule } from '../../../calls/calls.module';`,
        'modules/platforms/voice/x/x.controller.ts': `import { XDto } from '../../../calls/dto/x.dto';`,
      });
      expect(forbiddenDomainImports(found)).toEqual([
        'modules/platforms/voice/x/x-voice.provider -> modules/calls/calls.module',
      ]);
    });

    it('see a domain importing the platform layer, and messaging and voice reaching each other', () => {
      const found = sources({
        'modules/calls/calls.module.ts': `import { XModule } from '../platforms/voice/x.module';`,
        'modules/messaging/m.ts': [
          `import { VapiVoiceProvider } from '../platforms/voice/vapi/vapi-voice.provider';`,
          `import type { PlatformEvent } from '../calls/voice/voice-provider';`,
          `import { resolveCall } from '../calls/call-resolution';`,
        ].join('\n'),
        'modules/platforms/voice/v.ts': `import { Message } from '../../messaging/message.entity';`,
        'modules/platforms/messaging/x/x.ts': `import { VoicePlatforms } from '../../../calls/voice/voice-platforms';`,
        'modules/calls/voice/w.ts': `import { X } from '../../platforms/messaging/x/x-webhook.service';`,
      });
      expect(domainToPlatforms(found)).toEqual([
        'modules/calls/calls.module -> modules/platforms/voice/x.module',
        'modules/calls/voice/w -> modules/platforms/messaging/x/x-webhook.service',
        'modules/messaging/m -> modules/platforms/voice/vapi/vapi-voice.provider',
      ]);
      expect(messagingAndVoice(found)).toEqual([
        'modules/calls/voice/w -> modules/platforms/messaging/x/x-webhook.service',
        'modules/messaging/m -> modules/calls/voice/voice-provider',
        'modules/messaging/m -> modules/platforms/voice/vapi/vapi-voice.provider',
        'modules/platforms/messaging/x/x -> modules/calls/voice/voice-platforms',
        'modules/platforms/voice/v -> modules/messaging/message.entity',
      ]);
    });
  });
});
