import { describe, expect, it } from 'vitest';
import { saveEdit, type EditFormState } from '../../renderer/src/lib/edit-form.ts';

type Errors = { title?: string };

function recorder() {
  const calls: string[] = [];
  const form: EditFormState<string, Errors> = {
    showErrors: (errors) => calls.push(`errors ${JSON.stringify(errors)}`),
    saved: (result) => calls.push(`saved ${result}`),
    refused: (error) => calls.push(`refused ${(error as Error).message}`),
    busy: (busy) => calls.push(`busy ${busy}`),
  };
  return { calls, form };
}

describe("saveEdit, the edit forms' submit", () => {
  it("shows the fields' errors and sends nothing when the change fails its checks", async () => {
    const { calls, form } = recorder();
    const sent: unknown[] = [];
    await saveEdit({ ok: false, errors: { title: 'empty' } }, async (patch) => String(sent.push(patch)), form);
    expect(calls).toEqual(['errors {"title":"empty"}']);
    expect(sent).toEqual([]);
  });

  it('sends nothing when nothing changed, and says so with null', async () => {
    const { calls, form } = recorder();
    await saveEdit({ ok: true, patch: { id: 'x' }, changed: false }, async () => 'never', form);
    expect(calls).toEqual(['errors null', 'saved null']);
  });

  it("sends a change while busy and passes on the service's answer or its refusal", async () => {
    const ok = recorder();
    await saveEdit(
      { ok: true, patch: { title: 'New' }, changed: true },
      async (patch) => `answer ${patch.title}`,
      ok.form,
    );
    expect(ok.calls).toEqual(['errors null', 'busy true', 'saved answer New', 'busy false']);
    const refused = recorder();
    await saveEdit(
      { ok: true, patch: {}, changed: true },
      async () => Promise.reject(new Error('Document not found')),
      refused.form,
    );
    expect(refused.calls).toEqual(['errors null', 'busy true', 'refused Document not found', 'busy false']);
  });
});
