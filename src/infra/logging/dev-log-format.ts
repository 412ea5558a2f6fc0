import type { LoggerOptions, TransportSingleOptions } from 'pino';

/** Nest's start-up chatter: one line per module and per route, ~140 lines before anything useful. */
const STARTUP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory']);

/**
 * Development output (LOG_FORMAT=pretty): one coloured line per event through pino-pretty, and without the
 * framework's start-up chatter, so the first thing a newcomer reads is the banner. Production stays JSON.
 */
export function prettyLogOptions(): Pick<LoggerOptions, 'hooks'> & { transport: TransportSingleOptions } {
  return {
    transport: {
      target: 'pino-pretty',
      options: {
        singleLine: true,
        colorize: true,
        translateTime: 'SYS:HH:MM:ss',
        ignore: 'pid,hostname,context,req.id',
        messageFormat: '{if context}[{context}] {end}{msg}',
      },
    },
    hooks: {
      logMethod(args, method) {
        const [first] = args as unknown[];
        const context = (first as { context?: unknown } | undefined)?.context;
        if (typeof context === 'string' && STARTUP_CONTEXTS.has(context)) return;
        method.apply(this, args);
      },
    },
  };
}
