// A setting Threshold cannot use: which file, which key, what is wrong with it, in one sentence.
export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly key: string,
    readonly problem: string,
  ) {
    super(`Config error in ${file}: ${key ? key + ': ' : ''}${problem}`);
    this.name = 'ConfigError';
  }
}
