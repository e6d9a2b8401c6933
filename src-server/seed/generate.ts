import { v7 as uuidv7 } from 'uuid';
import { PartySubtype, PartyType, type ContractStatus } from '../../src-shared/domain/enums';
import type { CurrencyUnit } from '../../src-shared/domain/money';
import type { UserRole } from '../../src-shared/domain/user';
import type { contracts, counterparties, departments, organisations, users } from '../db/schema';
import {
  chineseBrands,
  chineseCities,
  chineseCompanySuffixes,
  chineseIndustries,
  contractTypes,
  departmentCatalogue,
  demoUsers,
  englishBrands,
  englishCompanySuffixes,
  englishIndustries,
  givenNames,
  innerCounterparties,
  organisationName,
  otherUsersPassword,
  surnames,
} from './catalogue';
import { Random } from './random';

// Pure generation of the demo data from a seed. Nothing here reads the clock: every date is
// measured back from a fixed base date, so the same seed yields the same rows on every run.

/** "Now" for the demo data: 2026-11-01 18:00 in Beijing, the end of a working day. */
export const seedBaseDate = new Date('2026-11-01T10:00:00Z');

const dayMs = 24 * 60 * 60 * 1000;
const beijingOffsetMs = 8 * 60 * 60 * 1000;
const totalUsers = 30;

/** 5,000 parties for the full demo (50,000 contracts); fewer, down to 500, for small test seeds. */
function counterpartyCount(contracts: number): number {
  return Math.min(5000, Math.max(500, Math.round(contracts / 10)));
}

export interface GeneratedUser extends Omit<typeof users.$inferInsert, 'passwordHash'> {
  password: string;
}

export interface DemoData {
  organisation: typeof organisations.$inferInsert;
  departments: (typeof departments.$inferInsert)[];
  users: GeneratedUser[];
  counterparties: (typeof counterparties.$inferInsert)[];
  contracts: (typeof contracts.$inferInsert)[];
}

interface Party {
  id: string;
  brand: string;
  english: boolean;
}

const statusWeights: readonly (readonly [ContractStatus | null, number])[] = [
  [1, 14], [2, 12], [3, 5], [4, 42], [5, 24], [null, 3],
];

/** How long after creation a contract in each status was last touched, in days. */
const updateSpanDays: Record<ContractStatus | 'none', readonly [number, number]> = {
  1: [0, 20], 2: [1, 30], 3: [2, 40], 4: [5, 90], 5: [30, 200], none: [0, 30],
};

const unitsForChinese: readonly (readonly [CurrencyUnit, number])[] = [['CNY', 97], ['USD', 2], ['HKD', 1]];
const unitsForForeign: readonly (readonly [CurrencyUnit, number])[] = [['USD', 45], ['CNY', 30], ['EUR', 15], ['HKD', 5], ['JPY', 5]];

/** yyyy-MM-dd of an instant as seen in Beijing, where the organisation works. */
function beijingDate(at: Date): string {
  return new Date(at.getTime() + beijingOffsetMs).toISOString().slice(0, 10);
}

/** `count` made-up parties with distinct names (the vocabularies hold far more combinations). */
function distinct(count: number, make: () => { name: string; brand: string }) {
  const byName = new Map<string, { name: string; brand: string }>();
  while (byName.size < count) {
    const party = make();
    byName.set(party.name, party);
  }
  return [...byName.values()];
}

export function generateDemoData(options: { contracts: number; seed: number }): DemoData {
  const random = new Random(options.seed);
  const base = seedBaseDate.getTime();
  const newId = (at: number) => uuidv7({ msecs: at, random: random.bytes(16) });
  /** An instant `days` before the base date, during Beijing office hours (09:00 to 18:00). */
  const daysAgo = (days: number) => base - days * dayMs - random.int(0, 9 * 60 * 60 * 1000);
  const founded = base - 1000 * dayMs;

  // The demo shows the credit views: its organisation subscribes to the credit platform.
  const organisation = { id: newId(founded), name: organisationName, creditPlatformEnabled: true, createdAt: new Date(founded) };

  const departmentIds = new Map<string, string>();
  const departmentRows = departmentCatalogue.map(({ name, parent }) => {
    const id = newId(founded);
    departmentIds.set(name, id);
    return { id, organisationId: organisation.id, parentId: parent ? departmentIds.get(parent) : null, name, createdAt: new Date(founded) };
  });
  const departmentIdOf = (name: string) => {
    const id = departmentIds.get(name);
    if (!id) throw new Error(`unknown department ${name}`);
    return id;
  };

  const user = (username: string, displayName: string, role: UserRole, departmentId: string, password: string): GeneratedUser => {
    const at = daysAgo(random.int(400, 900));
    return { id: newId(at), organisationId: organisation.id, username, displayName, role, departmentId, password, createdAt: new Date(at), updatedAt: new Date(at) };
  };
  const userRows = demoUsers.map((u) => user(u.username, u.displayName, u.role, departmentIdOf(u.department), u.password));
  const usernames = new Set(userRows.map((u) => u.username));
  for (let i = 0; userRows.length < totalUsers; i++) {
    const [surname, surnamePinyin] = random.pick(surnames);
    const [given, givenPinyin] = random.pick(givenNames);
    const username = `${surnamePinyin}.${givenPinyin}`;
    if (usernames.has(username)) continue;
    usernames.add(username);
    const department = departmentRows[i % departmentRows.length]!;
    userRows.push(user(username, `${surname}${given}`, 'staff', department.id, otherUsersPassword));
  }

  const totalCounterparties = counterpartyCount(options.contracts);
  const parties: Party[] = [];
  const counterpartyRows: DemoData['counterparties'] = [];
  const addParty = (name: string, type: PartyType, subtype: PartySubtype, brand: string, english: boolean) => {
    const at = daysAgo(random.int(300, 950));
    const id = newId(at);
    counterpartyRows.push({ id, organisationId: organisation.id, name, type, subtype, createdAt: new Date(at), updatedAt: new Date(at) });
    parties.push({ id, brand, english });
  };
  for (const name of innerCounterparties) addParty(name, PartyType.Inner, PartySubtype.Organization, '华辰', false);
  const people = distinct(Math.round(totalCounterparties * 0.05), () => {
    const name = `${random.pick(surnames)[0]}${random.pick(givenNames)[0]}`;
    return { name, brand: name };
  });
  for (const { name, brand } of people) addParty(name, PartyType.Outer, PartySubtype.NaturalPerson, brand, false);
  const foreign = distinct(Math.round((totalCounterparties - parties.length) * 0.25), () => {
    const brand = random.pick(englishBrands);
    return { name: `${brand} ${random.pick(englishIndustries)} ${random.pick(englishCompanySuffixes)}`, brand };
  });
  for (const { name, brand } of foreign) addParty(name, PartyType.Outer, PartySubtype.Organization, brand, true);
  const domestic = distinct(totalCounterparties - parties.length, () => {
    const brand = random.pick(chineseBrands);
    return { name: `${random.pick(chineseCities)}${brand}${random.pick(chineseIndustries)}${random.pick(chineseCompanySuffixes)}`, brand };
  });
  for (const { name, brand } of domestic) addParty(name, PartyType.Outer, PartySubtype.Organization, brand, false);

  const owners = userRows.filter((u) => u.role === 'staff');
  const typeWeights = contractTypes.map((t) => [t, t.weight] as const);
  const createdAts = Array.from({ length: options.contracts }, () => daysAgo(random.int(0, 730))).sort((a, b) => a - b);
  const numbersPerYear = new Map<string, number>();

  const contractRows = createdAts.map((createdAt): DemoData['contracts'][number] => {
    const type = random.weighted(typeWeights);
    const party = random.pick(parties);
    const [subjectZh, subjectEn] = random.pick(type.subjects);
    const year = beijingDate(new Date(createdAt)).slice(0, 4);
    const name = party.english
      ? `${type.english} - ${party.brand} ${subjectEn} (${year})`
      : `${type.name} - ${party.brand}${subjectZh}（${year}）`;

    const status = random.weighted(statusWeights);
    const [minSpan, maxSpan] = updateSpanDays[status ?? 'none'];
    // Recent work clamps to "now", spread over the last three days so the newest rows do not tie.
    const latest = Math.max(createdAt, base - random.int(0, 3 * 24 * 3_600_000));
    const updatedAt = Math.min(latest, createdAt + random.int(minSpan * 24, maxSpan * 24) * 60 * 60 * 1000 + random.int(0, 3_600_000));
    const signed = status === 4 || status === 5;
    const signDate = signed ? beijingDate(new Date(createdAt + random.next() * (updatedAt - createdAt))) : null;

    // Numbers are handed out in creation order per year; a fresh draft may not have one yet.
    const sequence = (numbersPerYear.get(year) ?? 0) + 1;
    numbersPerYear.set(year, sequence);
    const contractNumber = status === 1 && random.chance(0.4) ? null : `HT-${year}-${String(sequence).padStart(6, '0')}`;

    let amount: number | null = null;
    let amountUnit: CurrencyUnit | null = null;
    if (!random.chance(type.amount.missing)) {
      const { min, max } = type.amount;
      const major = min * Math.exp(random.next() * Math.log(max / min));
      // Round to whole hundreds of yuan, with cents on a few to keep formatting honest.
      amount = Math.round(major / 100) * 100 * 100 + (random.chance(0.1) ? random.int(1, 99) : 0);
      amountUnit = random.weighted(party.english ? unitsForForeign : unitsForChinese);
    }

    const owner = random.pick(owners);
    // A few contracts belong to another department than their owner's (cross-department work).
    const departmentId = random.chance(0.03) ? random.pick(departmentRows).id : owner.departmentId;

    return {
      id: newId(createdAt),
      name,
      contractNumber,
      status,
      contractTypeName: type.name,
      counterpartyId: party.id,
      amount,
      amountUnit,
      responsibleUserId: owner.id,
      departmentId,
      signDate,
      createTime: new Date(createdAt),
      updateTime: new Date(updatedAt),
      version: status === 1 ? random.int(1, 2) : random.int(1, 6),
    };
  });

  return { organisation, departments: departmentRows, users: userRows, counterparties: counterpartyRows, contracts: contractRows };
}
