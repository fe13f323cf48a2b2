import { EventEmitter } from 'node:events';
import type { Response } from 'express';
import { describe, expect, it } from 'vitest';
import { BusinessShare } from './business-share.js';

/** What the share reads of a response: its 'finish' and 'close' events and whether it is closed. */
class FakeResponse extends EventEmitter {
  closed = false;
  end() {
    this.emit('finish');
    this.close();
  }
  close() {
    if (this.closed) return;
    this.closed = true;
    this.emit('close');
  }
}

/** Enters `share` for business `b` with a fresh response; says whether (and in which order) it was served. */
function enter(share: BusinessShare, served: string[], name: string, res = new FakeResponse()) {
  share.enter('b', res as unknown as Response, (err?: unknown) => {
    served.push(err ? `${name}: ${(err as Error).message}` : name);
  });
  return res;
}

describe('BusinessShare', () => {
  it('When more requests arrive than a business may have in flight, then the rest are served in order as places free', () => {
    const share = new BusinessShare({ inFlight: 2, queued: 10 });
    const served: string[] = [];
    const first = enter(share, served, 'first');
    enter(share, served, 'second');
    enter(share, served, 'third');
    enter(share, served, 'fourth');
    expect(served).toEqual(['first', 'second']);
    expect(share.state('b')).toEqual({ serving: 2, waiting: 2 });

    first.end();
    expect(served).toEqual(['first', 'second', 'third']);
    expect(share.state('b')).toEqual({ serving: 2, waiting: 1 });
  });

  it('When a client has already left by the time it enters, then it takes no place and is not served', () => {
    const share = new BusinessShare({ inFlight: 1, queued: 10 });
    const served: string[] = [];
    const gone = new FakeResponse();
    gone.close();
    enter(share, served, 'gone', gone);
    expect(share.state('b')).toEqual({ serving: 0, waiting: 0 });

    enter(share, served, 'next');
    expect(served).toEqual(['next']);
  });

  it('When a waiting client leaves before its turn, then the place goes to the one behind it', () => {
    const share = new BusinessShare({ inFlight: 1, queued: 10 });
    const served: string[] = [];
    const first = enter(share, served, 'first');
    const leaving = enter(share, served, 'leaving');
    enter(share, served, 'behind');
    leaving.close();
    first.end();
    expect(served).toEqual(['first', 'behind']);
    expect(share.state('b')).toEqual({ serving: 1, waiting: 0 });
  });

  it('When the line is full, then a further request is refused with a 429 and takes no place', () => {
    const share = new BusinessShare({ inFlight: 1, queued: 1 });
    const served: string[] = [];
    enter(share, served, 'first');
    enter(share, served, 'waiting');
    enter(share, served, 'refused');
    expect(served).toEqual(['first', 'refused: Too many requests of this business at once; retry in 1 s']);
    expect(share.state('b')).toEqual({ serving: 1, waiting: 1 });
  });

  it('When a response both finishes and closes, then its place is given back once', () => {
    const share = new BusinessShare({ inFlight: 1, queued: 10 });
    const served: string[] = [];
    const first = enter(share, served, 'first');
    enter(share, served, 'second');
    enter(share, served, 'third');
    first.end();
    first.close();
    expect(served).toEqual(['first', 'second']);
    expect(share.state('b')).toEqual({ serving: 1, waiting: 1 });
  });
});
