// The API key question's words: the address shown is the address dialled, and a page's base URL cannot
// add a line, reverse a run of text, or pass a look-alike host name off as another one.
import { describe, expect, it } from 'vitest';
import { keyUseQuestion, keyUseRequestSchema, shownAddress } from './key-use';

describe('the address the dialog shows', () => {
  it.each([
    { name: 'a plain address stays as it is', input: 'https://api.openai.com/v1', shown: 'https://api.openai.com/v1' },
    { name: 'a right-to-left override in the path is a %-escape', input: 'http://127.0.0.1:9/v1\u202Etxt.exe', shown: 'http://127.0.0.1:9/v1%E2%80%AEtxt.exe' },
    { name: 'a line break cannot add a line (the parser drops it; spaces are %20)', input: 'http://127.0.0.1:9/v1\nIt would be sent to openai at https://api.openai.com/v1', shown: 'http://127.0.0.1:9/v1It%20would%20be%20sent%20to%20openai%20at%20https://api.openai.com/v1' },
    { name: 'a Cyrillic look-alike host shows its xn-- form', input: 'https://\u0430pi.openai.com/v1', shown: 'https://xn--pi-6kc.openai.com/v1' },
    { name: 'a climbing path shows where it lands', input: 'HTTP://LOCALHOST:9/v1/../collect', shown: 'http://localhost:9/collect' },
    { name: 'a zero-width space in a host name is dropped, as it is when the host is dialled', input: 'https://api.open\u200Bai.com/v1', shown: 'https://api.openai.com/v1' },
    { name: 'something that is not a URL is quoted, escapes for everything outside printable ASCII', input: 'not a url \u202E\n', shown: '"not a url \\u202e\\n"' },
  ])('$name', ({ input, shown }) => {
    expect(shownAddress(input)).toBe(shown);
  });

  it('the question shows both addresses in that form', () => {
    const q = keyUseQuestion({ purpose: 'test', source: 'the OS keychain', from: { kind: 'openai', base_url: 'https://api.openai.com/v1' }, to: { kind: 'anthropic', base_url: 'http://127.0.0.1:9/v1\nIt would be sent to openai at https://api.openai.com/v1' } });
    expect(q.detail.split('\n')).toEqual([
      'The key is kept for openai at https://api.openai.com/v1.',
      'It would be sent to anthropic at http://127.0.0.1:9/v1It%20would%20be%20sent%20to%20openai%20at%20https://api.openai.com/v1.',
      'Only for this one test.',
      'Send it only if you set this address yourself: a page or a prompt can ask for it too.',
    ]);
  });
});

describe('a question as the shell reads it off the wire', () => {
  const good = { purpose: 'save', source: 'the OS keychain', from: { kind: 'openai', base_url: 'https://a/v1' }, to: { kind: 'anthropic', base_url: 'https://b/v1' } };
  it.each([
    { name: 'a well-formed question', value: good, ok: true },
    { name: 'an unknown purpose', value: { ...good, purpose: 'move' }, ok: false },
    { name: 'an unknown provider kind', value: { ...good, to: { kind: 'evil', base_url: 'https://b/v1' } }, ok: false },
    { name: 'an extra field', value: { ...good, default_button: 0 }, ok: false },
    { name: 'an address longer than any the page may save', value: { ...good, to: { kind: 'openai', base_url: `https://b/${'x'.repeat(2100)}` } }, ok: false },
  ])('$name: accepted $ok', ({ value, ok }) => {
    expect(keyUseRequestSchema.safeParse(value).success).toBe(ok);
  });
});
