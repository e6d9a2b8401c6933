import type { AgentValue } from './field-config';

// Agent information (spec 3): law firms, then lawyers of the chosen firms.

export interface Lawyer {
  id: string;
  name: string;
  lawFirmID: string;
  /** 2 is disabled (spec 3's convention): kept where chosen, not offered anew. */
  state?: number;
}

/** The lawyers offered: those of the chosen law firms. */
export function lawyersOfFirms(lawyers: readonly Lawyer[], lawFirmIDs: readonly string[]): Lawyer[] {
  return lawyers.filter((l) => lawFirmIDs.includes(l.lawFirmID));
}

/** Changing the law firms drops the chosen lawyers who belong to none of them. */
export function changeLawFirms(value: AgentValue, lawFirmIDList: readonly string[], lawyers: readonly Lawyer[]): AgentValue {
  const offered = new Set(lawyersOfFirms(lawyers, lawFirmIDList).map((l) => l.id));
  return { lawFirmIDList: [...lawFirmIDList], lawyerIDList: value.lawyerIDList.filter((id) => offered.has(id)) };
}
