import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';

export interface OutgoingMail {
  /**
   * The outbox row's id, made the Message-ID: a message sent again (at least once, mail.sender.ts)
   * carries the same one, so the receiving side can tell it is the same message.
   */
  id?: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

/** Where messages go: an SMTP server, or the log in development mail mode. */
export interface MailTransport {
  readonly kind: 'smtp' | 'log';
  /** Resolves once the server accepted the message; rejects with the reason otherwise. */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** Short enough that a hung server never holds a message past its lease (mail.sender.ts). */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * nodemailer over SMTP, one connection per message (a few a minute at most: a pool would only hold
 * idle sockets). The URL carries host, port, credentials and TLS (`smtps://` for implicit TLS,
 * `smtp://` with STARTTLS when the server offers it). nodemailer never logs here: messages carry tokens.
 * It is loaded with the first message, so a process that sends none (development mail mode, the
 * admin CLI) never loads it.
 */
export function smtpTransport(url: string, from: string): MailTransport {
  const domain = /@([^\s@<>]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  let transporter: Promise<Transporter> | undefined;
  const connect = async () => {
    const { default: nodemailer } = await import('nodemailer');
    return nodemailer.createTransport({ url, ...SMTP_TIMEOUTS, logger: false }, { from });
  };
  return {
    kind: 'smtp',
    async send(mail) {
      transporter ??= connect();
      const { id, ...rest } = mail;
      await (await transporter).sendMail({ ...rest, ...(id ? { messageId: `<${id}@${domain}>` } : {}) });
    },
    close: () => void transporter?.then((made) => made.close()).catch(() => undefined),
  };
}

/**
 * Development mail mode (no SMTP_URL): each message is written to the log at info level, and
 * nowhere else. Never for production: anyone who reads the log can accept invites and reset passwords.
 */
export function logTransport(logger: Logger): MailTransport {
  return {
    kind: 'log',
    send(mail) {
      logger.info(
        { mail: { to: mail.to, subject: mail.subject, text: mail.text } },
        'development mail mode: message logged, not sent',
      );
      return Promise.resolve();
    },
    close: () => undefined,
  };
}

export function mailTransport(config: { SMTP_URL?: string; MAIL_FROM?: string }, logger: Logger): MailTransport {
  if (!config.SMTP_URL) return logTransport(logger);
  return smtpTransport(config.SMTP_URL, config.MAIL_FROM ?? 'no-reply@localhost');
}
