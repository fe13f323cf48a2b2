import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';
import { apiDocument } from '../../src/routes.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the OpenAPI document', () => {
  it('When linted by Redocly (recommended-strict, redocly.yaml), then it has no error and no warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fbk-openapi-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(apiDocument(), null, 2));

    // --no-install: the devDependency or nothing; no telemetry and no update check, so no network.
    const { stdout, stderr } = await promisify(execFile)(
      'npx',
      ['--no-install', 'redocly', 'lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format', 'stylish'],
      {
        cwd: ROOT,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      },
    ).catch((err: { stdout: string; stderr: string }) => {
      throw new Error(`redocly lint failed:\n${err.stdout}\n${err.stderr}`);
    });
    // recommended-strict makes every warning an error: a zero exit is a clean document.
    expect(`${stdout}\n${stderr}`).toMatch(/Your API description is valid/);
    expect(`${stdout}\n${stderr}`).not.toMatch(/You have \d+ (warning|error)/);
    // A Redocly process of its own (npx, then loading the CLI): up to 9 s measured on a loaded 2-core machine.
  }, 60_000);
});
