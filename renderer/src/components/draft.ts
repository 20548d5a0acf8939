// The message box's text, kept in this tab's sessionStorage as it is typed: a page that must be
// reopened with its token (or reloaded while Threshold restarts) gets the unsent message back. It stays
// in this tab only (sessionStorage is per tab and per address) and is cleared once sent.
import { useEffect, useState, type Dispatch, type SetStateAction } from 'react';

const KEY = 'threshold.draft';

function read(): string {
  try {
    return globalThis.sessionStorage?.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

function write(text: string): void {
  try {
    if (text) globalThis.sessionStorage?.setItem(KEY, text);
    else globalThis.sessionStorage?.removeItem(KEY);
  } catch {
    // No storage (a locked-down browser): the draft lives as long as the page.
  }
}

export function useDraft(): [string, Dispatch<SetStateAction<string>>] {
  const [text, setText] = useState(read);
  useEffect(() => write(text), [text]);
  return [text, setText];
}
