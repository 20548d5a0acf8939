// A command line that cannot be run as typed: the message says what to type instead (exit code 2).
export class UsageError extends Error {}
