import { describe, expect, it } from 'vitest';
import { Redactor, sanitiseErrorText } from './redactor';

const redactor = new Redactor({ home: '/home/ada', knownSecrets: ['my-provider-key-0123456789'] });

const secretCases = [
    { kind: 'an AWS access key id', text: 'aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE', secret: 'AKIAIOSFODNN7EXAMPLE' },
    { kind: 'an AWS secret key after its name', text: 'export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
    { kind: 'a GitHub token', text: 'git clone https://github.com/x/y && echo ghp_16C7e42F292c6912E7710c838347Ae178B4a', secret: 'ghp_16C7e42F292c6912E7710c838347Ae178B4a' },
    { kind: 'a fine-grained GitHub token', text: 'GH=github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEF', secret: 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEF' },
    { kind: 'an Anthropic key', text: 'curl -H "x-api-key: sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz-AAAA" x', secret: 'sk-ant-api03-abcdefghijklmnop' },
    { kind: 'an OpenAI key', text: 'OPENAI=sk-proj-abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghij', secret: 'sk-proj-abcdefghijklmnopqrstuvwxyz' },
    { kind: 'a Slack token', text: 'post xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx now', secret: 'xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx' },
    { kind: 'basic-auth credentials in a URL', text: 'curl https://ada:hunter2hunter2@example.com/api', secret: 'hunter2hunter2' },
    { kind: 'a database connection string', text: 'psql postgres://admin:s3cr3tPassw0rd@db.internal:5432/app', secret: 's3cr3tPassw0rd' },
    { kind: 'a private key block', text: 'cat > k <<EOF\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU\nAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----\nEOF', secret: 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmU' },
    { kind: 'a Google API key', text: 'key=AIzaSyD-abcdefghijklmnopqrstuvwxyz012345', secret: 'AIzaSyD-abcdefghijklmnopqrstuvwxyz012345' },
    { kind: 'a Stripe key', text: 'STRIPE=sk_live_4eC39HqLyjWDarjtT1zdp7dc', secret: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc' },
    { kind: 'an npm token', text: '//registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789', secret: 'npm_abcdefghijklmnopqrstuvwxyz0123456789' },
    { kind: 'a JWT', text: 'Authorization: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', secret: 'dozjgNryP4J3jVmNHl0w5N' },
    { kind: 'a bearer token', text: 'curl -H "Authorization: Bearer abcDEF123456ghiJKL" https://x', secret: 'abcDEF123456ghiJKL' },
    { kind: 'a password option', text: 'mysql --password=correcthorsebattery -u root', secret: 'correcthorsebattery' },
    { kind: 'a password in JSON', text: '{"username":"ada","password":"Tr0ub4dor&3xyz"}', secret: 'Tr0ub4dor' },
    { kind: "the app's own known key", text: 'echo my-provider-key-0123456789 | base64', secret: 'my-provider-key-0123456789' },
    { kind: 'a high-entropy token', text: 'deploy --key Zq8xV2mN4pL7rT1wY6sB3dF9gH5jK0cE', secret: 'Zq8xV2mN4pL7rT1wY6sB3dF9gH5jK0cE' },
];

describe('redaction hides each kind of secret, whole', () => {
  const cases = secretCases;
  it.each(cases)('$kind', async ({ text, secret }) => {
    const out = await redactor.redactText(text);
    expect(out).not.toContain(secret);
    expect(out).toContain('[REDACTED:');
  });
});

describe('redaction keeps what is not secret', () => {
  it.each([
    { text: 'git status --short', want: 'git status --short' },
    { text: 'git show 3f2a9c1e5b7d4f6a8c0e2b4d6f8a1c3e5b7d9f0a', want: 'git show 3f2a9c1e5b7d4f6a8c0e2b4d6f8a1c3e5b7d9f0a' },
    { text: 'cat src/components/VeryLongComponentName2024.tsx', want: 'cat src/components/VeryLongComponentName2024.tsx' },
    { text: 'npm install @scope/package-name@1.2.3', want: 'npm install @scope/package-name@1.2.3' },
    { text: 'export TOKEN=$GITHUB_TOKEN', want: 'export TOKEN=$GITHUB_TOKEN' },
  ])('$text', async ({ text, want }) => {
    expect(await redactor.redactText(text)).toBe(want);
  });
});

describe('redaction of personal data', () => {
  it('masks e-mail addresses', async () => {
    expect(await redactor.redactText('git config user.email ada@example.com')).toBe('git config user.email [email]');
  });
  it('turns the home directory into ~', async () => {
    expect(await redactor.redactText('ls /home/ada/projects /home/adam /home/ada')).toBe('ls ~/projects /home/adam ~');
  });
  it('redacts every string inside a value, and the keys too', async () => {
    expect(await redactor.redactValue({ command: 'cat /home/ada/.netrc', env: ['TOKEN=abcdefgh12345678'], ghp_16C7e42F292c6912E7710c838347Ae178B4a: 1 })).toEqual({ command: 'cat ~/.netrc', env: ['TOKEN=[REDACTED:secret]'], '[REDACTED:github-token]': 1 });
  });
});

describe('sanitiseErrorText', () => {
  it('is one redacted line of at most 512 characters', () => {
    const out = sanitiseErrorText(redactor, `failed:\n${'x'.repeat(1000)} password=supersecret1`);
    expect(out.length).toBe(512);
    expect(out).not.toContain('\n');
    expect(sanitiseErrorText(redactor, 'auth failed for password=supersecret1')).toBe('auth failed for password=[REDACTED:secret]');
  });
});

describe('a long-running process', () => {
  it('keeps no performance marks from secretlint, scan after scan', async () => {
    performance.clearMarks();
    for (let i = 0; i < 20; i++) await redactor.redactText(`token ghp_${'a'.repeat(36)} run ${i}`);
    await new Promise((r) => setImmediate(r));
    expect(performance.getEntriesByType('mark').length).toBe(0);
  });
});

describe('values for storage', () => {
  // Audit data redacts values that were redacted already (the arguments); verify compares the two.
  it.each(secretCases)('a second redaction changes nothing: $kind', async ({ text }) => {
    const once = await redactor.redactText(text);
    expect(redactor.redactValueSync({ args: once })).toEqual({ args: once });
  });

  it('redactRecord keeps the fields named verbatim (a content hash looks like a secret) and redacts the rest', () => {
    // sha256('1'); about two in three content hashes look like a secret to the entropy rule.
    const hash = '6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b';
    expect(redactor.redactRecord({ hash, note: 'use password=supersecret1 in /home/ada', n: 3 }, ['hash'])).toEqual({ hash, note: 'use password=[REDACTED:secret] in ~', n: 3 });
    expect(redactor.redactRecord({ hash })).toEqual({ hash: '[REDACTED:high-entropy]' });
  });

  it.each([
    { what: 'a path glob in the home folder becomes ~ (matching reads ~ back)', p: { kind: 'path' as const, glob: '/home/ada/project/**' }, want: { ok: true, pattern: { kind: 'path', glob: '~/project/**' } } },
    { what: 'a path glob elsewhere stays', p: { kind: 'path' as const, glob: '/home/adam/x/**' }, want: { ok: true, pattern: { kind: 'path', glob: '/home/adam/x/**' } } },
    { what: 'redirect globs fold the home folder, argv tokens stay literal', p: { kind: 'argv' as const, argv: ['cat', '/home/ada/a.txt'], redirects: ['/home/ada/logs/*.log'] }, want: { ok: true, pattern: { kind: 'argv', argv: ['cat', '/home/ada/a.txt'], redirects: ['~/logs/*.log'] } } },
    { what: 'a pattern with a key is refused', p: { kind: 'url' as const, prefix: 'https://x.example/?key=AKIAIOSFODNN7EXAMPLE' }, want: { ok: false, message: 'A grant must not contain a secret: it is stored as written.' } },
  ])('grant patterns: $what', ({ p, want }) => {
    expect(redactor.redactGrantPattern(p)).toEqual(want);
  });
});

describe('redaction walks at most 128 levels', () => {
  const deep = JSON.parse('{"a":'.repeat(5000) + '"sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789"' + '}'.repeat(5000)) as unknown;
  const depthOf = (v: unknown): number => {
    let d = 0;
    for (let x = v; x && typeof x === 'object'; x = (x as { a: unknown }).a) d++;
    return d;
  };
  it.each([
    { name: 'redactValue', run: () => redactor.redactValue(deep) },
    { name: 'redactValueSync', run: async () => redactor.redactValueSync(deep) },
  ])('$name replaces what lies deeper with a marker instead of overflowing the stack', async ({ run }) => {
    const out = await run();
    expect({ depth: depthOf(out), text: JSON.stringify(out).includes('sk-ant-'), marker: JSON.stringify(out).endsWith('"[REDACTED:nested deeper than 128 levels]"' + '}'.repeat(128)) }).toEqual({ depth: 128, text: false, marker: true });
  });
});
