package testenv

// actualScript is the Node script the harness runs Actual's API client (@actual-app/api)
// with: it reads a request (actualRequest) as JSON on its standard input, signs in to the
// server (with the password or a session token), makes the budget file or downloads it,
// runs the request's changes (ActualOp) and syncs them to the server, reads the budget
// back when asked (each table with the client's own database access, names in place of
// ids), and prints its answer as one JSON line after "RESULT ".
const actualScript = `const api = require('@actual-app/api');

const queries = {
  accounts: 'SELECT name, offbudget, closed FROM accounts WHERE tombstone = 0',
  payees: 'SELECT name FROM payees WHERE tombstone = 0 AND transfer_acct IS NULL',
  groups: 'SELECT name, is_income, hidden FROM category_groups WHERE tombstone = 0',
  categories: 'SELECT c.name, g.name AS grp, c.hidden FROM categories c LEFT JOIN category_groups g ON g.id = c.cat_group WHERE c.tombstone = 0',
  budgets: 'SELECT b.month, c.name AS category, b.amount FROM zero_budgets b JOIN categories c ON c.id = b.category WHERE b.amount != 0 AND c.tombstone = 0',
  transactions: 'SELECT t.id, a.name AS account, t.date, coalesce(p.name, \'\') AS payee, coalesce(c.name, \'\') AS category, t.amount, ' +
    'coalesce(t.notes, \'\') AS notes FROM v_transactions_internal_alive t LEFT JOIN accounts a ON a.id = t.account ' +
    'LEFT JOIN payees p ON p.id = t.payee LEFT JOIN categories c ON c.id = t.category',
  rules: 'SELECT stage, conditions_op, conditions, actions FROM rules WHERE tombstone = 0',
  schedules: 'SELECT name, completed, active FROM schedules WHERE tombstone = 0',
  prefs: 'SELECT id, value FROM preferences',
};

async function state(db) {
  const out = {};
  for (const [k, q] of Object.entries(queries)) out[k] = await db.all(q);
  const names = {};
  for (const table of ['accounts', 'payees', 'categories', 'category_groups']) {
    for (const r of await db.all('SELECT id, name FROM ' + table)) names[r.id] = r.name;
  }
  const text = v => (Array.isArray(v) ? v.map(x => names[x] ?? x).join(', ') : (names[v] ?? v));
  const field = f => ({ description: 'payee', acct: 'account' })[f] ?? f ?? '';
  out.rules = out.rules.map(r => ({
    stage: r.stage ?? '', op: r.conditions_op,
    conditions: JSON.parse(r.conditions || '[]').map(c => [field(c.field), c.op, text(c.value)].join(' ')).join(' and '),
    actions: JSON.parse(r.actions || '[]').map(a => [a.op, field(a.field), text(a.value)].join(' ')).join(' and '),
  }));
  return out;
}

const cents = units => api.utils.amountToInteger(units || 0);
const today = () => new Date().toISOString().slice(0, 10);

async function id(kind, name) {
  const got = await api.getIDByName(kind, name);
  if (!got) throw new Error('no ' + kind + ' named ' + name);
  return got;
}

async function findTransaction(o) {
  const all = await api.getTransactions(await id('accounts', o.account), '2000-01-01', '2100-01-01');
  const payee = await id('payees', o.payee);
  const hit = all.find(t => t.payee === payee && t.amount === cents(o.amount));
  if (!hit) throw new Error('no transaction of ' + o.payee + ' for ' + o.amount + ' in ' + o.account);
  return hit;
}

const ops = {
  async account(o) { await api.createAccount({ name: o.name, offbudget: !!o.offbudget }, cents(o.balance)); },
  async group(o) { await api.createCategoryGroup({ name: o.name, is_income: false }); },
  async category(o) {
    const group = (await api.getCategoryGroups()).find(g => g.name === o.group);
    if (!group) throw new Error('no category group named ' + o.group);
    await api.createCategory({ name: o.name, group_id: group.id });
  },
  async payee(o) { await api.createPayee({ name: o.name }); },
  async transaction(o) {
    await api.addTransactions(await id('accounts', o.account), [{
      date: o.date || today(), payee: await id('payees', o.payee), amount: cents(o.amount), notes: o.notes || null,
      category: o.category ? await id('categories', o.category) : null,
    }]);
  },
  async budget(o) { await api.setBudgetAmount(o.month || today().slice(0, 7), await id('categories', o.category), cents(o.amount)); },
  async renamePayee(o) { await api.updatePayee(await id('payees', o.from), { name: o.to }); },
  async deleteTransaction(o) { await api.deleteTransaction((await findTransaction(o)).id); },
  async rule(o) {
    await api.createRule({
      stage: null, conditionsOp: 'and',
      conditions: [{ field: 'payee', op: 'is', value: await id('payees', o.payee) }],
      actions: [{ op: 'set', field: 'category', value: await id('categories', o.category) }],
    });
  },
};

async function main() {
  const req = JSON.parse(require('fs').readFileSync(0, 'utf8'));
  const auth = req.token ? { sessionToken: req.token } : { password: req.password };
  const lib = await api.init({ dataDir: req.dataDir, serverURL: req.server, ...auth });
  let result = {};
  if (req.create) {
    await api.runImport(req.create, async () => {
      for (const o of req.ops || []) await ops[o.op](o);
    });
    const made = (await api.getBudgets()).find(b => b.name === req.create);
    result.syncId = made ? made.groupId : '';
  } else {
    await api.downloadBudget(req.syncId);
    for (const o of req.ops || []) await ops[o.op](o);
    if ((req.ops || []).length) await api.sync();
    if (req.state) result = await state(lib.db);
  }
  await api.shutdown();
  process.stdout.write('\nRESULT ' + JSON.stringify(result) + '\n');
}

main().catch(err => {
  process.stderr.write(String((err && err.stack) || err) + '\n');
  process.exit(1);
});
`
