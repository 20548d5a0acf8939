// The environment a jailed command sees: cleared, then an allowlist. Nothing whose name looks like a
// credential passes unless the user named it; provider API keys never reach a child.
const ALLOW = ['PATH', 'HOME', 'LANG', 'LANGUAGE', 'TERM', 'USER', 'LOGNAME', 'SHELL', 'TMPDIR', 'TZ', 'COLORTERM', 'NO_COLOR'];
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION/i;
const PROVIDER_KEYS = /^(ANTHROPIC|OPENAI|OPENROUTER|GEMINI|GOOGLE|MISTRAL|GROQ|COHERE|DEEPSEEK|XAI|AZURE_OPENAI|OLLAMA)_/;

export function scrubEnv(env: NodeJS.ProcessEnv, extraAllowed: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) continue;
    const named = extraAllowed.includes(k);
    const allowed = named || ALLOW.includes(k) || k.startsWith('LC_');
    if (!allowed) continue;
    // A name the user allowed may still not carry a provider key.
    if (PROVIDER_KEYS.test(k)) continue;
    if (!named && SECRET_NAME.test(k)) continue;
    out[k] = v;
  }
  out['PATH'] ??= '/usr/local/bin:/usr/bin:/bin';
  out['TMPDIR'] = '/tmp';
  return out;
}
