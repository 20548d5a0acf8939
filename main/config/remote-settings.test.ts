import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './load';

const CONTRACT = `
[remote.telegram]
api_base = "https://api.telegram.org"
bot_token_env = "THRESHOLD_TELEGRAM_TOKEN"
chat_id = 123456789
[remote.matrix]
homeserver = "https://matrix.example.org"
access_token_env = "THRESHOLD_MATRIX_TOKEN"
room_id = "!room:example.org"
user_id = "@me:example.org"
`;

describe('[remote] in threshold.toml', () => {
  it("reads the issue's contract keys as written, with the defaults for the rest", async () => {
    const c = await parseConfig(CONTRACT, 'threshold.toml');
    expect(c.remote).toEqual({
      maxClass: 'network',
      content: 'summary',
      pollSeconds: 25,
      telegram: { apiBase: 'https://api.telegram.org', botTokenEnv: 'THRESHOLD_TELEGRAM_TOKEN', chatId: 123456789 },
      matrix: { homeserver: 'https://matrix.example.org', accessTokenEnv: 'THRESHOLD_MATRIX_TOKEN', roomId: '!room:example.org', userId: '@me:example.org' },
      phone: null,
    });
  });

  it('is off by default: no bridge, no phone page', async () => {
    expect((await parseConfig('', 'threshold.toml')).remote).toEqual({ maxClass: 'network', content: 'summary', pollSeconds: 25, telegram: null, matrix: null, phone: null });
  });

  it.each([
    { toml: '[remote]\nmax_class = "destructive"', key: 'remote.max_class', problem: /floor/ },
    { toml: '[remote]\ncontent = "full"', key: 'remote.content', problem: /summary|none/ },
    { toml: '[remote.telegram]\nchat_id = 1\napi_base = "http://api.telegram.org"', key: 'remote.telegram.api_base', problem: /https/ },
    { toml: '[remote.telegram]\nchat_id = 1\nbot_token = "123:abc"', key: 'remote.telegram.bot_token', problem: /unknown key/ },
    { toml: '[remote.telegram]\nchat_id = "me"', key: 'remote.telegram.chat_id', problem: /number/ },
    { toml: '[remote.telegram]\nchat_id = 0', key: 'remote.telegram.chat_id', problem: /chat id/ },
    { toml: '[remote.telegram]\nchat_id = 1\nbot_token_env = "TOKEN; rm"', key: 'remote.telegram.bot_token_env', problem: /environment variable/ },
    { toml: '[remote.matrix]\nhomeserver = "https://m.org"\nroom_id = "#alias:m.org"\nuser_id = "@me:m.org"', key: 'remote.matrix.room_id', problem: /room id/ },
    { toml: '[remote.matrix]\nhomeserver = "https://m.org"\nroom_id = "!r:m.org"\nuser_id = "me"', key: 'remote.matrix.user_id', problem: /user id/ },
    { toml: '[remote.phone]\naddress = "0.0.0.0"', key: 'remote.phone.address', problem: /every interface/ },
    { toml: '[remote.phone]\naddress = "::"', key: 'remote.phone.address', problem: /every interface/ },
    { toml: '[remote.phone]\naddress = "127.0.0.1"', key: 'remote.phone.address', problem: /loopback/ },
    { toml: '[remote.phone]\naddress = "my-laptop.local"', key: 'remote.phone.address', problem: /not a name/ },
  ])('$key: refused at load ($toml)', async ({ toml, key, problem }) => {
    const err = await parseConfig(toml, 'threshold.toml').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect({ key: (err as ConfigError).key, problem: problem.test((err as ConfigError).problem) }).toEqual({ key, problem: true });
  });

  it('a phone address is kept in its canonical form (the Host check compares exactly that)', async () => {
    const c = await parseConfig('[remote.phone]\naddress = "192.168.001.020"\nport = 9443', 'threshold.toml').catch((e: unknown) => e);
    // A leading-zero octet is refused rather than guessed (octal or decimal).
    if (c instanceof Error) expect((c as ConfigError).key).toBe('remote.phone.address');
    else expect((c as Awaited<ReturnType<typeof parseConfig>>).remote.phone).toEqual({ address: '192.168.1.20', family: 4, port: 9443 });
    expect((await parseConfig('[remote.phone]\naddress = "192.168.1.20"', 'threshold.toml')).remote.phone).toEqual({ address: '192.168.1.20', family: 4, port: 8443 });
  });
});
