// Settings → Model: the provider kind, base URL and model, where the API key comes from, and "Test
// connection" (one real request: the model's answer and the latency, or the provider's error). The key
// is typed only in the desktop window, which stores it in the OS keychain; a browser page never takes
// one (it names the environment variable to set instead), so a key never crosses the web socket. A key goes
// only to the kind and address it is bound to: testing or saving another one sends no key unless the
// desktop window's own confirmation (shown by the app, not this page) says so; the page says where the
// key is kept instead.
import { useEffect, useId, useState } from 'react';
import type { ModelTest, ModelView, ProviderInput } from '../store/types';
import { useApp } from '../store/store';

const KIND_WORDS: Record<ProviderInput['kind'], string> = {
  'openai-compatible': 'OpenAI-compatible server (Ollama, LM Studio, llama.cpp, vLLM)',
  anthropic: 'Anthropic',
  openai: 'OpenAI',
};

function keyWords(v: ModelView): string {
  const where = v.key_source === 'keychain' ? 'the OS keychain' : `the environment variable ${v.api_key_env}`;
  if (v.key_source !== 'none' && !v.key_applies) return `A key is in ${where}, but it is not sent to this provider:`;
  if (v.key_source === 'keychain') return 'The key comes from the OS keychain.';
  if (v.key_source === 'environment') return `The key comes from the environment variable ${v.api_key_env}.`;
  if (!v.api_key_env) return 'No key is set; an OpenAI-compatible server on this machine usually needs none.';
  return `No key is set: neither the OS keychain nor the environment variable ${v.api_key_env} holds one.`;
}

function TestResult({ r }: { r: ModelTest }) {
  const withoutKey = r.key_note && (
    <p className="hint" data-testid="model-test-key">
      {`Sent without the API key. ${r.key_note}`}
    </p>
  );
  if (r.reached && r.answer !== null) {
    return (
      <>
        <p className="test-result ok" data-testid="model-test-result">
          {`Connected in ${r.latency_ms} ms. ${r.label} answered: “${r.answer}”`}
        </p>
        {withoutKey}
      </>
    );
  }
  return (
    <>
      <p className="test-result error" data-testid="model-test-result">
        {`The test failed after ${r.latency_ms} ms: ${r.error ?? 'no answer.'}`}
      </p>
      {withoutKey}
    </>
  );
}

function KeyField({ view }: { view: ModelView }) {
  const id = useId();
  const store = useApp((s) => s.storeApiKey);
  const [key, setKey] = useState('');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  if (!view.key_storable) {
    return (
      <p className="key-advice" data-testid="key-advice">
        {view.api_key_env
          ? `This page never takes an API key. Set the environment variable ${view.api_key_env} for threshold serve (for example in the shell that starts it) and restart it.`
          : 'This provider takes no key here. To use one that needs a key, choose its kind, save, and set the environment variable this page then names.'}
      </p>
    );
  }
  return (
    <div className="field key">
      <label htmlFor={id}>API key (stored in the OS keychain, never shown again)</label>
      <input id={id} type="password" autoComplete="off" spellCheck={false} value={key} aria-describedby={`${id}-bound`} onChange={(e) => setKey(e.target.value)} />
      <p className="hint" id={`${id}-bound`} data-testid="key-bound-to">
        {`A key stored here is kept for ${KIND_WORDS[view.kind]} at ${view.base_url}, the provider in use, and is sent nowhere else.`}
      </p>
      <button
        type="button"
        disabled={key.trim().length < 8}
        onClick={async () => {
          const r = await store(key.trim());
          setKey('');
          setMessage(r.ok ? { ok: true, text: 'The key is stored in the OS keychain and used from the next model step on.' } : { ok: false, text: r.error.message });
        }}
      >
        Store the key
      </button>
      {message && (
        <p className={message.ok ? 'hint' : 'error'} role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </p>
      )}
    </div>
  );
}

export function ModelPage() {
  const base = useId();
  const view = useApp((s) => s.modelView);
  const error = useApp((s) => s.modelError);
  const load = useApp((s) => s.loadModel);
  const save = useApp((s) => s.saveModel);
  const test = useApp((s) => s.testModel);
  const [form, setForm] = useState<ProviderInput | null>(null);
  const [busy, setBusy] = useState<'test' | 'save' | null>(null);
  const [result, setResult] = useState<ModelTest | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (view && !form) setForm({ kind: view.kind, base_url: view.base_url, model: view.model });
  }, [view, form]);

  const change = (patch: Partial<ProviderInput>) => {
    setForm((f) => (f ? { ...f, ...patch } : f));
    // A result is about the settings it tested; another value makes it stale.
    setSaved(false);
    setResult(null);
  };
  const run = async (what: 'test' | 'save') => {
    if (!form) return;
    setBusy(what);
    setProblem(null);
    if (what === 'test') {
      setResult(null);
      const r = await test(form);
      if (r.ok) setResult(r.value);
      else setProblem(r.error.message);
    } else {
      setResult(null);
      const r = await save(form);
      if (r.ok) setSaved(true);
      else setProblem(r.error.message);
    }
    setBusy(null);
  };

  return (
    <section className="model-screen" aria-labelledby={`${base}-title`}>
      <h2 id={`${base}-title`}>Model</h2>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {view && form && (
        <>
          <p data-testid="model-in-use">{`In use: ${view.label}, ${view.origin === 'page' ? 'saved on this page (over the config file, which is never rewritten)' : 'from the config file'}.`}</p>
          <form
            className="model-form"
            aria-label="Provider"
            onSubmit={(e) => {
              e.preventDefault();
              void run('save');
            }}
          >
            <div className="field">
              <label htmlFor={`${base}-kind`}>Provider kind</label>
              <select id={`${base}-kind`} value={form.kind} onChange={(e) => change({ kind: e.target.value as ProviderInput['kind'] })}>
                {(Object.keys(KIND_WORDS) as ProviderInput['kind'][]).map((k) => (
                  <option key={k} value={k}>
                    {KIND_WORDS[k]}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${base}-url`}>Base URL</label>
              <input id={`${base}-url`} type="url" spellCheck={false} value={form.base_url} onChange={(e) => change({ base_url: e.target.value })} />
            </div>
            <div className="field">
              <label htmlFor={`${base}-model`}>Model</label>
              <input id={`${base}-model`} type="text" spellCheck={false} value={form.model} onChange={(e) => change({ model: e.target.value })} />
            </div>
            <div className="actions">
              <button type="button" disabled={busy !== null} onClick={() => void run('test')}>
                {busy === 'test' ? 'Testing…' : 'Test connection'}
              </button>
              <button type="submit" className="primary" disabled={busy !== null}>
                Save
              </button>
            </div>
          </form>
          <div aria-live="polite" className="model-status">
            {result && <TestResult r={result} />}
            {saved && <p className="hint">Saved: the agent uses this provider from its next model step on.</p>}
          </div>
          {problem && (
            <p className="error" role="alert">
              {problem}
            </p>
          )}
          <h3>API key</h3>
          <p data-testid="key-source">{keyWords(view)}</p>
          {view.key_note && (
            <p className="error" role="note" data-testid="key-not-sent">
              {view.key_note}
            </p>
          )}
          <KeyField view={view} />
        </>
      )}
    </section>
  );
}
