import type { Config } from '../../src/config/config.js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Express } from 'express';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import supertest from 'supertest';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../../src/app.js';
import { createRateLimiters } from '../../src/http/rate-limit.js';
import { MailSender, type MailSenderOptions } from '../../src/mail/mail.sender.js';
import { smtpTransport } from '../../src/mail/mail.transport.js';
import { capturingLogger, type TestContext } from './app.js';
import { checked } from './contract.js';
import { reservablePort } from './ports.js';

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  /** Each header's raw value, by lower-case name. */
  headers: Record<string, string>;
}

/**
 * A real SMTP server on loopback (the `smtp-server` package) that keeps every message it accepts,
 * parsed as a mail client would (`mailparser`). It can be stopped and started again on the same
 * port, to play a mail server that is down.
 */
export class SmtpPeer {
  readonly messages: ReceivedMail[] = [];
  #server: SMTPServer | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<SmtpPeer> {
    const peer = new SmtpPeer(await reservablePort());
    await peer.listen();
    return peer;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async listen(): Promise<void> {
    const server = new SMTPServer({
      // Plain SMTP on loopback: no certificate to trust, no credentials to check.
      disabledCommands: ['STARTTLS', 'AUTH'],
      authOptional: true,
      logger: false,
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then((parsed) => {
            const addresses = (Array.isArray(parsed.to) ? parsed.to : parsed.to ? [parsed.to] : []).flatMap((group) =>
              group.value.map((entry) => entry.address ?? ''),
            );
            this.messages.push({
              to: addresses,
              from: parsed.from?.text ?? '',
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              headers: Object.fromEntries(
                parsed.headerLines.map(({ key, line }) => [
                  key,
                  line
                    .slice(line.indexOf(':') + 1)
                    .replace(/\r?\n[ \t]+/g, ' ')
                    .trim(),
                ]),
              ),
            });
            callback();
          })
          .catch((err: Error) => callback(err));
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.#server = server;
  }

  async close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The messages sent to `address` so far. */
  to(address: string): ReceivedMail[] {
    return this.messages.filter((message) => message.to.some((to) => to.toLowerCase() === address.toLowerCase()));
  }

  /** Waits until `count` messages have arrived for `address`, and answers the last of them. */
  async waitFor(address: string, { count = 1, timeoutMs = 15_000 } = {}): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    while (this.to(address).length < count) {
      if (Date.now() > deadline) throw new Error(`no message for ${address} within ${timeoutMs} ms`);
      await sleep(20);
    }
    return this.to(address).at(-1)!;
  }
}

/** The token a message carries: the invite (`fbi_`) or reset (`fbr_`) token on its own line. */
export function tokenIn(mail: ReceivedMail, prefix: 'fbi_' | 'fbr_'): string {
  const match = new RegExp(`^${prefix}[A-Za-z0-9_-]{43}$`, 'm').exec(mail.text);
  if (!match) throw new Error(`no ${prefix} token in:\n${mail.text}`);
  return match[0];
}

export interface MailApp {
  readonly app: Express;
  readonly logs: string[];
  readonly sender: MailSender;
  readonly peer: SmtpPeer;
  request(): supertest.Agent;
}

export const DASHBOARD_URL = 'https://dashboard.feedback.test';

/**
 * An SMTP peer and an app on the file's database whose mail goes to it, as in production, with
 * quick retries; the sender polls when `poll` is set. Its own rate limiters, generous unless told
 * otherwise. Made before the file's tests, stopped after them.
 */
export function useSmtpApp(
  ctx: TestContext,
  options: {
    poll?: boolean;
    failedAuthLimit?: number;
    /** Page writes (posts, votes, follows) one address may make a minute; the service's default unless told. */
    pageWriteLimit?: number;
    sender?: Partial<MailSenderOptions>;
    /** The public page's clock (form tokens' minimum fill time is measured on it). */
    publicPage?: { now?: () => number; followConfirmationsPerHour?: number };
    /** Settings of the app's own (SIGNUP=open). */
    config?: Partial<Config>;
  } = {},
): MailApp {
  const { logger, logs } = capturingLogger();
  let made: { app: Express; sender: MailSender; peer: SmtpPeer; close(): Promise<void> } | undefined;
  const get = () => {
    if (!made) throw new Error('the SMTP app is made before the tests');
    return made;
  };

  beforeAll(async () => {
    const peer = await SmtpPeer.start();
    const sender = new MailSender(ctx.db.pool, smtpTransport(peer.url, 'Feedback <no-reply@feedback.test>'), logger, {
      dashboardUrl: DASHBOARD_URL,
      retryDelayMs: 200,
      maxRetryDelayMs: 1_000,
      pollIntervalMs: 100,
      ...options.sender,
    });
    const rateLimiters = createRateLimiters({
      limit: 100_000,
      failedAuthLimit: options.failedAuthLimit ?? 100_000,
      pageWriteLimit: options.pageWriteLimit,
      logger,
    });
    const app = createApp({
      db: ctx.db,
      logger,
      rateLimiters,
      mail: sender,
      publicPage: options.publicPage,
      config: options.config,
    });
    if (options.poll) sender.start();
    made = {
      app,
      sender,
      peer,
      async close() {
        await sender.stop();
        await rateLimiters.close();
        await peer.close();
      },
    };
  });
  afterAll(async () => {
    await made?.close();
  });

  return {
    get app() {
      return get().app;
    },
    get sender() {
      return get().sender;
    },
    get peer() {
      return get().peer;
    },
    logs,
    request: () => checked(supertest.agent(get().app)),
  };
}
