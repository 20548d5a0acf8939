import { useEffect, useState } from 'react';
import type { AgentInfo, AppApi, AppInfo } from '../../common/contract';

declare global {
  interface Window {
    threshold?: AppApi;
  }
}

export function App() {
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [agent, setAgent] = useState<AgentInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const api = window.threshold;
    if (!api) {
      setError('The Threshold bridge is missing: this page must be opened by the app or its web mode.');
      return;
    }
    void api.getInfo().then((result) => (result.ok ? setInfo(result.value) : setError(result.error.message)));
    // The model is always named, so a scripted demo is never mistaken for a real one.
    void api.getAgentInfo().then((result) => (result.ok ? setAgent(result.value) : setError(result.error.message)));
  }, []);
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 24 }}>
      <h1>Threshold</h1>
      <p>A desktop assistant that asks before it acts.</p>
      {info && <p data-testid="app-info">{`${info.name} ${info.version} (${info.runtime})`}</p>}
      {agent && <p data-testid="model-label">{`Model: ${agent.model}`}</p>}
      {error && <p role="alert">{error}</p>}
    </main>
  );
}
