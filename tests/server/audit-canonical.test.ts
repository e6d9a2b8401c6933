import { describe, expect, it } from 'vitest';
import { canonicalJson, eventHash, genesisHash } from '../../src-server/audit/chain';
import { changedFields } from '../../src-server/audit/record';

// The chain's hashes are over canonical JSON: stored events are verified against the text this
// function gives, so its output must never change. These are the texts it gave when the chain was
// made (src-server/audit/chain.ts).

describe('the audit chain canonical JSON', () => {
  it('sorts keys at every depth by code unit, drops undefined members, writes dates as ISO strings', () => {
    const value = { b: 1, a: [3, { z: null, y: undefined, 'é': 'x', B: true }], c: new Date('2026-11-28T10:00:00.000Z'), d: { e: [], f: {} }, Z: -0.5, '10': 's"q' };
    expect(canonicalJson(value)).toBe('{"10":"s\\"q","Z":-0.5,"a":[3,{"B":true,"z":null,"é":"x"}],"b":1,"c":"2026-11-28T10:00:00.000Z","d":{"e":[],"f":{}}}');
    expect(canonicalJson([undefined, null, 'a'])).toBe('[null,null,"a"]');
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('gives an event the hash it was given when the chain was made', () => {
    const event = {
      organisationId: 'org-1',
      seq: 7,
      userId: 'u-1',
      userName: 'Alice',
      device: 'device-1',
      entity: 'contract',
      entityId: 'c-1',
      action: 'contract.update',
      changes: { name: { before: 'Old', after: 'New' }, 'formValues.amount': { before: null, after: 12.5 } },
      editedAt: new Date('2026-11-27T09:30:00.000Z'),
      appliedAt: new Date('2026-11-28T10:00:00.000Z'),
      mutationId: 'm-1',
      requestId: null,
      prevHash: genesisHash,
    };
    expect(eventHash(event)).toBe('1828f21528d5f822e747e741bff301e35dde031cfb5ca584d18146ba3271b085');
  });

  it('records every field of a created row, and none that did not change', () => {
    expect(changedFields(undefined, { id: 'a', name: 'N', values: { x: 1 }, version: 1 })).toEqual({ id: { before: null, after: 'a' }, name: { before: null, after: 'N' }, values: { before: null, after: { x: 1 } } });
    expect(changedFields({ name: 'N', values: { x: 1, y: [1] } }, { name: 'N', values: { x: 1, y: [1, 2] } })).toEqual({ 'values.y': { before: [1], after: [1, 2] } });
  });
});
