#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config/config.js';
import { BackupError } from '../db/backup.js';
import { migrate } from '../db/migrate.js';
import { openDatabase } from '../db/open.js';
import { HttpError } from '../errors/http-error.js';
import type { Command } from './command.js';
import { CliError, COMMANDS } from './commands.js';
import { BACKUP_COMMANDS } from './backup.command.js';
import { SEED_COMMANDS } from './seed.command.js';
import { SETUP_COMMANDS } from './setup.command.js';

/** Commands without a group: `admin -- seed ...`, `admin -- backup ...`. */
const STANDALONE_COMMANDS = { ...SEED_COMMANDS, ...BACKUP_COMMANDS, ...SETUP_COMMANDS };

const PROGRAM = 'npm run --silent admin --';

function groupHelp(): string {
  const lines = [
    ...Object.values(COMMANDS).flatMap((group) => Object.values(group)),
    ...Object.values(STANDALONE_COMMANDS),
  ].map((c) => `  ${c.usage}\n      ${c.summary}`);
  return (
    `Usage: ${PROGRAM} <group> <command> [options]\n\nCommands:\n${lines.join('\n')}\n\n` +
    'Every command prints JSON on stdout. Uses DATABASE_URL, or the embedded database in DATA_DIR (./data).\n'
  );
}

function commandHelp(c: Command): string {
  const options = Object.entries(c.options).map(
    ([name, o]) =>
      `  --${name}${o.type === 'string' ? ' VALUE' : ''}  ${o.description}${o.required ? ' (required)' : ''}`,
  );
  return `Usage: ${PROGRAM} ${c.usage}\n\n${c.summary}\n${options.length ? `\nOptions:\n${options.join('\n')}\n` : ''}`;
}

function subcommandHelp(group: string): string {
  const lines = Object.values(COMMANDS[group] ?? {}).map((c) => `  ${c.usage}\n      ${c.summary}`);
  return `Usage: ${PROGRAM} ${group} <command> [options]\n\nCommands:\n${lines.join('\n')}\n`;
}

/** Resolves the command and its validated input, or throws a CliError whose message is the help to show. */
function parseCommandLine(argv: string[]): { command: Command; input: unknown } | { help: string } {
  const [group, name, ...rest] = argv;
  if (!group || group === '--help' || group === '-h') return { help: groupHelp() };
  const standalone = STANDALONE_COMMANDS[group];
  if (standalone) return parseInput(standalone, argv.slice(1));
  const commands = COMMANDS[group];
  if (!commands) throw new CliError(`unknown command group '${group}'\n\n${groupHelp()}`);
  if (!name || name === '--help' || name === '-h') return { help: subcommandHelp(group) };
  const command = commands[name];
  if (!command) throw new CliError(`unknown command '${group} ${name}'\n\n${subcommandHelp(group)}`);
  return parseInput(command, rest);
}

/** The command's options and positionals from `rest`, validated by its schema. */
function parseInput(command: Command, rest: string[]): { command: Command; input: unknown } | { help: string } {
  if (rest.includes('--help') || rest.includes('-h')) return { help: commandHelp(command) };

  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      options: Object.fromEntries(Object.entries(command.options).map(([k, o]) => [k, { type: o.type }])),
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new CliError(`${(err as Error).message}\n\n${commandHelp(command)}`);
  }
  const expected = command.positionals ?? [];
  if (parsed.positionals.length !== expected.length) {
    throw new CliError(`expected ${expected.length} argument(s)\n\n${commandHelp(command)}`);
  }
  const missing = Object.entries(command.options).filter(([k, o]) => o.required && parsed.values[k] === undefined);
  if (missing.length > 0) {
    throw new CliError(`missing ${missing.map(([k]) => `--${k}`).join(', ')}\n\n${commandHelp(command)}`);
  }
  const raw = { ...parsed.values, ...Object.fromEntries(expected.map((k, i) => [k, parsed.positionals[i]])) };
  const input = command.schema.safeParse(raw);
  if (!input.success) {
    const problems = input.error.issues.map((i) => `${String(i.path[0] ?? '')}: ${i.message}`).join('; ');
    throw new CliError(`invalid input: ${problems}`);
  }
  return { command, input: input.data };
}

async function main(argv: string[]): Promise<number> {
  const parsed = parseCommandLine(argv);
  if ('help' in parsed) {
    process.stdout.write(parsed.help);
    return 0;
  }
  const config = loadConfig();
  const db = await openDatabase(config, () => undefined, { allowClient: true });
  try {
    if (parsed.command.migrates !== false) await migrate(db.pool);
    const result = await parsed.command.run(db, parsed.input as never, config);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const known =
      err instanceof CliError || err instanceof ConfigError || err instanceof HttpError || err instanceof BackupError;
    const message = known || (err instanceof Error && err.name === 'DataDirInUseError') ? err.message : String(err);
    process.stderr.write(`error: ${message}\n`);
    process.exit(known ? 2 : 1);
  },
);
