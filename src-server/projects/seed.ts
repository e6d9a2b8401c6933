import type { contracts, users } from '../db/schema';
import { seededId } from '../seed/batch';
import { chineseCities } from '../seed/catalogue';
import { Random } from '../seed/random';
import type { projects } from './schema';

// Demo projects, each created by a staff member, and about one contract in seven of that
// person's department put into one of its projects. Pure: the rows are written by the seed.

const subjects = ['仓储中心建设', '数字化转型', '华东供应链整合', '新办公楼装修', 'ERP升级', '海外市场拓展', '数据中心迁移', '品牌焕新', '智慧园区', '研发中心扩建'];

export function generateProjects(
  input: { organisationId: string; staff: readonly Pick<typeof users.$inferInsert, 'id' | 'departmentId'>[]; contracts: readonly (typeof contracts.$inferInsert)[] },
  seed: number,
  base: number,
): { projects: (typeof projects.$inferInsert)[]; projectOf: Map<string, string> } {
  const random = new Random(seed ^ 0x9e0_1ec7);
  const names = new Set<string>();
  while (names.size < 60) names.add(`${random.pick(chineseCities)}${random.pick(subjects)}项目${random.chance(0.3) ? `（${random.int(2, 3)}期）` : ''}`);
  const rows = [...names].map((name) => {
    const owner = random.pick(input.staff);
    const at = base - random.int(30, 700) * 86_400_000;
    return {
      id: seededId(random, at), organisationId: input.organisationId, name, description: `${name}相关合同的归集`,
      createdBy: owner.id, createTime: new Date(at), updateTime: new Date(at), departmentId: owner.departmentId,
    };
  });
  const byDepartment = new Map<string, string[]>();
  for (const { id, departmentId } of rows) if (departmentId) byDepartment.set(departmentId, [...(byDepartment.get(departmentId) ?? []), id]);
  const projectOf = new Map<string, string>();
  for (const contract of input.contracts) {
    const candidates = contract.departmentId ? byDepartment.get(contract.departmentId) : undefined;
    if (candidates && random.chance(0.15)) projectOf.set(contract.id, random.pick(candidates));
  }
  return { projects: rows.map(({ departmentId: _department, ...row }) => row), projectOf };
}
