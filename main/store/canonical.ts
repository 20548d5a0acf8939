// Canonical JSON: keys sorted at every level, no spaces. Equal values always serialise identically,
// which is what content hashes and the audit chain need. Written with an explicit stack, so a value of
// any depth serialises (a hash must cover exactly what was sent, however deep) without recursion.
type Step = { text: string } | { value: unknown };

export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const todo: Step[] = [{ value }];
  while (todo.length) {
    const step = todo.pop()!;
    if ('text' in step) {
      out.push(step.text);
      continue;
    }
    const v = step.value;
    if (v === null || typeof v !== 'object') {
      out.push(JSON.stringify(v ?? null) ?? 'null');
    } else if (Array.isArray(v)) {
      out.push('[');
      todo.push({ text: ']' });
      for (let i = v.length - 1; i >= 0; i--) {
        todo.push({ value: v[i] });
        if (i > 0) todo.push({ text: ',' });
      }
    } else {
      const entries = Object.entries(v as Record<string, unknown>)
        .filter(([, x]) => x !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      out.push('{');
      todo.push({ text: '}' });
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, x] = entries[i]!;
        todo.push({ value: x });
        todo.push({ text: `${i > 0 ? ',' : ''}${JSON.stringify(k)}:` });
      }
    }
  }
  return out.join('');
}
