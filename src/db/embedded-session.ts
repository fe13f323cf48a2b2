import type { PGlite } from '@electric-sql/pglite';

interface Pending {
  connection: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (err: unknown) => void;
}

/** ReadyForQuery with the session idle: 'Z', length 5, 'I'. */
const READY_IDLE = [0x5a, 0, 0, 0, 5, 0x49];
/** A Sync message: ends an extended-query exchange, or the skipping that follows its error. */
const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);

/**
 * Decides which socket connection's protocol messages PGlite's one session runs. pglite-socket's own
 * queue runs them message by message and keeps to one connection only inside a transaction
 * (electric-sql/pglite#1046): a Parse of one connection could run between another's Parse and Bind,
 * when a large Bind reached the socket in pieces, and that Bind then ran the first connection's
 * statement with its own values (an error, or wrong rows when the shapes matched). This queue gives
 * the session to one connection until PGlite answers ReadyForQuery with no transaction open: the end
 * of an extended-query exchange (Sync), of a simple query, of a COPY, of a transaction.
 *
 * It stands in for pglite-socket's QueryQueueManager, whose methods its socket handlers call.
 */
export class SessionQueue {
  readonly #db: PGlite;
  #pending: Pending[] = [];
  /** The connection the session belongs to until it is ready and idle; null when it is. */
  #owner: number | null = null;
  #running = false;

  constructor(db: PGlite) {
    this.#db = db;
  }

  enqueue(connection: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ connection, message, onData, resolve, reject });
      void this.#run();
    });
  }

  getQueueLength(): number {
    return this.#pending.length;
  }

  /** A connection is gone: what it had queued is dropped. */
  clearQueueForHandler(connection: number): void {
    const dropped = this.#pending.filter((pending) => pending.connection === connection);
    this.#pending = this.#pending.filter((pending) => pending.connection !== connection);
    for (const pending of dropped) pending.reject(new Error('connection closed'));
  }

  /**
   * A connection is gone while the session was its own: whatever it left open (an exchange, a
   * transaction) is ended, so that the next connection finds the session ready and idle.
   */
  async clearTransactionIfNeeded(connection: number): Promise<void> {
    if (this.#owner !== connection) return;
    await this.#db.runExclusive(() => this.#db.execProtocolRawStream(SYNC, { onRawData: () => undefined }));
    if (this.#db.isInTransaction()) await this.#db.exec('ROLLBACK');
    this.#owner = null;
    void this.#run();
  }

  async #run(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    try {
      for (;;) {
        const index =
          this.#owner === null ? 0 : this.#pending.findIndex((pending) => pending.connection === this.#owner);
        // Nothing queued, or the owner's next message has not arrived yet: the next enqueue resumes.
        if (index < 0 || index >= this.#pending.length) return;
        const [next] = this.#pending.splice(index, 1);
        await this.#execute(next!);
      }
    } finally {
      this.#running = false;
    }
  }

  async #execute(pending: Pending): Promise<void> {
    let bytes = 0;
    let tail: number[] = [];
    try {
      await this.#db.runExclusive(() =>
        this.#db.execProtocolRawStream(pending.message, {
          onRawData: (data) => {
            bytes += data.length;
            tail = [...tail, ...data.subarray(-READY_IDLE.length)].slice(-READY_IDLE.length);
            pending.onData(data);
          },
        }),
      );
    } catch (err) {
      pending.reject(err);
      return;
    }
    const idle = tail.length === READY_IDLE.length && tail.every((byte, i) => byte === READY_IDLE[i]);
    this.#owner = idle ? null : pending.connection;
    pending.resolve(bytes);
  }
}
