import { v7 as uuidv7 } from 'uuid';
import type { Clause, FieldConfig } from '../../src-shared/domain/contract-forms';
import { formatNumber } from '../../src-shared/rules/numbering';
import type { ServerDb } from '../db/database';
import { templates } from '../db/schema';
import type { SeededNumbering } from '../numbering/seed';
import { numberCounters } from '../numbering/schema';
import type { DemoData } from '../seed/generate';
import { Random } from '../seed/random';
import { archiveOfflineSettings, fieldDefinitions, fieldOptions, templateClauses } from './schema';

// Demo form data: field definitions with options (one long list that pages), offline archive
// places, and approved templates with field configs and clauses, numbered by the template rule.

const commonFields: FieldConfig[] = [
  { id: 'contractName', name: '合同名称', type: 'text', required: true, maxlength: 200 },
  { id: 'contractNumber', name: '合同编号', type: 'contractNumber' },
  { id: 'contractType', name: '合同类型', type: 'contractType', required: true },
  { id: 'counterparty', name: '相对方', type: 'inputSelectV2', required: true, partyType: 2 },
  { id: 'amount', name: '合同金额', type: 'money', fieldConfig: { money: { isWordAmount: true, isWithUnit: true } }, alterEditStatus: 2 },
  { id: 'signDate', name: '签订日期', type: 'date', fieldConfig: { date: { dateFormat: 'yyyy年MM月dd日' } } },
  { id: 'bankAccount', name: '收款账号', type: 'bankAccount', alterEditStatus: 2 },
  { id: 'relatedContracts', name: '关联合同', type: 'relatedContracts', alterEditStatus: 2 },
  { id: 'attachment', name: '合同附件', type: 'upload' },
  { id: 'remark', name: '备注', type: 'textarea', maxlength: 1000, alterEditStatus: 2 },
];

const text = (t: string) => ({ type: 'text' as const, text: t });

const paymentClause: Clause = {
  labelID: 'payment', name: '付款条款', isNullable: true, bookmarkName: 'bm_payment',
  statementList: [
    {
      id: 1, name: '一次性付款',
      content: [[text('甲方应于合同签订后'), { type: 'field', fieldId: 'payDays' }, text('日内一次性支付全部合同价款。')]],
      fieldList: [{ id: 'payDays', name: '付款天数', type: 'number', required: true }],
      labelItemList: [{ id: 'pay-once', name: '一次性' }],
    },
    {
      id: 2, name: '分期付款',
      content: [[text('合同价款分'), { type: 'field', fieldId: 'instalments' }, text('期支付，每期于验收后支付。')]],
      fieldList: [{ id: 'instalments', name: '分期数', type: 'number', required: true }],
      labelItemList: [{ id: 'pay-instalments', name: '分期' }],
    },
  ],
};

const disputeClause: Clause = {
  labelID: 'dispute', name: '争议解决', isNullable: false, bookmarkName: 'bm_dispute',
  statementList: [
    { id: 1, name: '诉讼', content: [[text('因本合同引起的争议，由甲方所在地人民法院管辖。')]], fieldList: [], labelItemList: [] },
  ],
};

const templateCatalogue = [
  { name: '采购合同标准模板', typeIndex: 0, clauses: [paymentClause, disputeClause] },
  { name: '销售合同标准模板', typeIndex: 1, clauses: [paymentClause, disputeClause] },
  { name: '服务合同标准模板', typeIndex: 2, clauses: [disputeClause] },
  { name: '保密协议模板', typeIndex: 5, clauses: [] },
];

const fieldCatalogue: { name: string; type: string; options: readonly string[] }[] = [
  { name: '付款方式', type: 'select', options: ['银行转账', '承兑汇票', '信用证', '现金'] },
  { name: '币种', type: 'select', options: ['人民币', '美元', '欧元', '港币', '日元'] },
  { name: '签约地点', type: 'select', options: ['上海', '北京', '深圳', '杭州', '广州', '苏州', '南京', '成都'] },
  // A long list, so dynamic_select has pages to append.
  { name: '成本中心', type: 'select', options: Array.from({ length: 120 }, (_, i) => `CC-${String(i + 1).padStart(4, '0')}`) },
];

export async function seedContractForms(tx: ServerDb, data: DemoData, numbering: SeededNumbering, seed: number, at: Date): Promise<void> {
  const random = new Random(seed ^ 0x666f726d);
  const newId = () => uuidv7({ msecs: at.getTime(), random: random.bytes(16) });
  const organisationId = data.organisation.id!;
  const adminId = data.users.find((u) => u.role === 'admin')!.id!;

  const definitions = fieldCatalogue.map((field, sortOrder) => ({ id: newId(), organisationId, name: field.name, type: field.type, sortOrder }));
  await tx.insert(fieldDefinitions).values(definitions);
  await tx.insert(fieldOptions).values(
    fieldCatalogue.flatMap((field, i) => field.options.map((name, sortOrder) => ({ fieldId: definitions[i]!.id, id: String(sortOrder + 1), name, sortOrder }))),
  );
  await tx.insert(archiveOfflineSettings).values(['总部档案室', '上海分公司档案室', '深圳分公司档案室'].map((name, sortOrder) => ({ id: newId(), organisationId, name, sortOrder })));

  const rows = templateCatalogue.map((template, i) => ({
    id: newId(), organisationId, name: template.name, status: 4 as const, fields: commonFields, createdBy: adminId, createTime: at, updateTime: at,
    contractTypeId: numbering.contractTypeIds[template.typeIndex] ?? null,
    templateNumber: formatNumber({ digits: 3, isNatural: false }, { abbr: 'MB', dateFormat: null }, i + 1, at),
  }));
  await tx.insert(templates).values(rows);
  await tx.insert(templateClauses).values(
    templateCatalogue.flatMap((template, i) =>
      template.clauses.map((clause, position) => ({
        id: newId(), templateId: rows[i]!.id, position, labelId: clause.labelID, name: clause.name, isNullable: clause.isNullable,
        bookmarkName: clause.bookmarkName, statementList: clause.statementList,
      })),
    ),
  );
  // The template numbers above came from the template rule: its counter continues after them.
  await tx.insert(numberCounters).values({ ruleId: numbering.templateRuleId, scopeKey: '', period: '', lastSerial: rows.length, updateTime: at });
}
