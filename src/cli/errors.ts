/** A mistake on the command line: its message is shown as is, with a non-zero exit. */
export class CliError extends Error {}
