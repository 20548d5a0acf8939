// Settings: one screen with a tab per page (Agent access, Model, Grants), keyboard as the ARIA tabs
// pattern has it (arrows, Home and End move between tabs; Tab enters the page).
import { useRef, type KeyboardEvent } from 'react';
import type { SettingsTab } from '../store/types';
import { useApp } from '../store/store';
import { AgentAccessPage } from './agent-access-page';
import { DevicesPage } from './devices-page';
import { GrantsScreen } from './grants-page';
import { ModelPage } from './model-page';

const TABS: { id: SettingsTab; label: string }[] = [
  { id: 'access', label: 'Agent access' },
  { id: 'model', label: 'Model' },
  { id: 'grants', label: 'Grants' },
  { id: 'devices', label: 'Devices' },
];


export function SettingsScreen() {
  const tab = useApp((s) => s.settingsTab);
  const setTab = useApp((s) => s.setSettingsTab);
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const move = (e: KeyboardEvent) => {
    const i = TABS.findIndex((t) => t.id === tab);
    const to = e.key === 'ArrowRight' ? (i + 1) % TABS.length : e.key === 'ArrowLeft' ? (i + TABS.length - 1) % TABS.length : e.key === 'Home' ? 0 : e.key === 'End' ? TABS.length - 1 : -1;
    if (to < 0) return;
    e.preventDefault();
    setTab(TABS[to]!.id);
    refs.current[TABS[to]!.id]?.focus();
  };
  return (
    <main className="settings-screen" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <div role="tablist" aria-label="Settings pages" className="settings-tabs" onKeyDown={move}>
        {TABS.map((t) => (
          <button
            key={t.id}
            ref={(el) => {
              refs.current[t.id] = el;
            }}
            type="button"
            role="tab"
            id={`settings-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`settings-panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`settings-panel-${tab}`} aria-labelledby={`settings-tab-${tab}`} className="settings-panel">
        {tab === 'access' ? <AgentAccessPage /> : tab === 'model' ? <ModelPage /> : tab === 'devices' ? <DevicesPage /> : <GrantsScreen />}
      </div>
    </main>
  );
}
