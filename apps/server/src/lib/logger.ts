import pino, { type Logger } from 'pino';
import { redactSecrets } from './redact.ts';

/**
 * The process's logger: JSON lines; a request is logged with its URL's secrets redacted, and
 * credentials in headers or bodies never appear (the security issue, finding 6).
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.token',
          'req.headers.cookie',
          '*.password',
          '*.token',
        ],
        censor: '[redacted]',
      },
      serializers: {
        res: (reply: { statusCode?: number }) => ({ statusCode: reply.statusCode }),
        err: pino.stdSerializers.err,
        req: (request: {
          method?: string;
          url?: string;
          ip?: string;
          socket?: { remotePort?: number };
        }) => ({
          method: request.method,
          url: redactSecrets(request.url ?? ''),
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        }),
      },
    },
    destination,
  );
}
