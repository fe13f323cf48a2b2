import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { apiDocument } from '../../src/routes.js';

/** The README is for a newcomer: short, and every file it links to is there. */
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** Paragraphs with their line breaks as spaces, so a sentence reads whole. */
const paragraphs = (text: string) => text.split(/\n\s*\n/).map((paragraph) => paragraph.replace(/\s+/g, ' '));

describe('The README', () => {
  it('When read, then it is at most 250 lines', () => {
    expect(README.trimEnd().split('\n').length).toBeLessThanOrEqual(250);
  });

  it('When it links to a file of the repository, then the file exists', () => {
    const targets = [...README.matchAll(/\]\(((?!https?:|#)[^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!);
    expect(targets.length).toBeGreaterThan(10);
    expect(targets.filter((target) => !existsSync(new URL(`../../${target}`, import.meta.url)))).toEqual([]);
  });

  it('When its Idempotency-Key example is run where only Node is on the PATH, then it makes a UUID', async () => {
    const command = /^KEY_ID=\$\((.+?)\)\s/m.exec(README)?.[1];
    expect(command).toBeDefined();
    // The README asks for Node and nothing else: uuidgen, say, is missing from many machines.
    const { stdout } = await promisify(execFile)('/bin/sh', ['-c', command!], {
      env: { PATH: dirname(process.execPath) },
    });
    expect(stdout.trim()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('When it says unknown ids are a 404, then it says a business id is a 403, as the spec and the document do', () => {
    const { description } = apiDocument().info as { description: string };
    for (const text of [README, description]) {
      const saying = paragraphs(text).filter((paragraph) => /unknown ids? (is |are )?a 404/.test(paragraph));
      expect(saying.length).toBeGreaterThan(0);
      for (const paragraph of saying) expect(paragraph).toMatch(/business id [^.]*is a 403/);
    }
  });
});
