// Static checks of the Terraform topology, on the parsed HCL (@cdktf/hcl2json), without
// Terraform or AWS. Used by terraform.test.mjs and runnable alone:
//   node infra/test/check-terraform.mjs [dir]     exits 1 and lists the problems, if any
//
// The hosts and firewall rules depend on variables (shard_count, redis_cluster_count): every rule
// is checked against the plan of each scenario of SCENARIOS (the defaults first), in which `count`,
// the security groups' `dynamic "ingress"` blocks and the variables' validations are evaluated. The
// evaluator (evaluate below) knows only the small part of Terraform's expression language these
// files use there: var.*, literals, lists, arithmetic, comparisons, && || !, ?:, floor/contains/
// length. Any other reference (local.*, a resource) is unknown, and an unknown count or for_each
// is reported as a problem, never guessed.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse } from '@cdktf/hcl2json';

export const TERRAFORM_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../terraform');

// Database ports on the db host: PostgreSQL, Tarantool, Redis cache, Redis persistent, the Redis
// queues redis-aof and redis-rdb, Beanstalkd; and the Redis Cluster's three masters when they run
// there (redis_cluster_count = 0).
export const DB_PORTS = [5432, 3301, 6379, 6380, 6381, 6382, 11300];
export const REDIS_CLUSTER_DB_PORTS = [7001, 7002, 7003];
// A Redis Cluster host's one master, and the cluster bus (port + 10000) of every master.
export const REDIS_CLUSTER_PORT = 7001;
export const REDIS_CLUSTER_BUS_PORTS = REDIS_CLUSTER_DB_PORTS.map((p) => p + 10000);
export const SERVICE_PORT = 8080;
export const APP_GROUP = '${aws_security_group.app.id}';
const OPEN_CIDRS = new Set(['0.0.0.0/0', '::/0']);
const DEBIAN_OWNER = '136693071363';
const ADMIN_CIDR = '${var.admin_cidr}';

// The variable sets every rule is checked under: today's two hosts, a sharded cluster, a Redis
// Cluster on hosts of its own, and both at their largest. A scenario applies to a directory that
// declares its variables (the bad fixture declares neither, so only the defaults apply there).
export const SCENARIOS = {
  defaults: {},
  'shard_count=3': { shard_count: 3 },
  'redis_cluster_count=3': { redis_cluster_count: 3 },
  'shard_count=16, redis_cluster_count=16': { shard_count: 16, redis_cluster_count: 16 },
};

// Which provisioning each kind of host runs (its user_data template must run the script).
export const HOST_SCRIPTS = {
  app: 'infra/provision/app.sh',
  db: 'infra/provision/db.sh',
  kv_node: 'infra/provision/app.sh',
  kv_db: 'infra/provision/db.sh',
  redis_cluster: 'infra/provision/db.sh',
};

/** How many hosts of each kind a plan with these variables must have. */
export function expectedHosts(vars) {
  const shards = vars.shard_count ?? 1;
  const masters = vars.redis_cluster_count ?? 0;
  return { app: 1, db: 1, kv_node: shards - 1, kv_db: shards - 1, redis_cluster: masters };
}

/** Parses every .tf file of dir. Returns { files: [{name, text, json}], raw: [{name, text}] }. */
export async function loadTerraform(dir) {
  const names = readdirSync(dir).sort();
  const files = [];
  for (const name of names.filter((n) => n.endsWith('.tf'))) {
    const text = readFileSync(join(dir, name), 'utf8');
    files.push({ name, text, json: await parse(name, text) });
  }
  // Every text file Terraform reads or we ship beside it: scanned for credentials.
  const raw = [];
  const walk = (sub) => {
    for (const entry of readdirSync(join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) { if (entry.name !== '.terraform') walk(rel); continue; }
      if (/\.(tf|tftpl|tfvars|example|json|yaml|yml|hcl)$/.test(entry.name)) raw.push({ name: rel, text: readFileSync(join(dir, rel), 'utf8') });
    }
  };
  walk('');
  return { dir, files, raw };
}

/** Every block of `kind` (resource, data, variable, …) as [{type, name, body, file}]. */
function blocks(tf, kind) {
  const out = [];
  for (const { name: file, json } of tf.files) {
    const section = json[kind];
    if (!section) continue;
    if (kind === 'variable' || kind === 'output') {
      for (const [name, bodies] of Object.entries(section)) for (const body of bodies) out.push({ type: kind, name, body, file });
    } else {
      for (const [type, byName] of Object.entries(section)) {
        for (const [name, bodies] of Object.entries(byName)) for (const body of bodies) out.push({ type, name, body, file });
      }
    }
  }
  return out;
}

const list = (value) => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);
const isLiteral = (value) => typeof value === 'string' && value.length > 0 && !value.includes('${');

// ---- a small evaluator of Terraform expressions -------------------------------------------

/** What an expression evaluates to when it depends on something other than variables. */
export const UNKNOWN = Symbol('unknown');

function tokenize(source) {
  const tokens = [];
  const pattern = /\s*(?:(\d+(?:\.\d+)?)|("(?:[^"\\$]|\\.)*")|([A-Za-z_][A-Za-z0-9_-]*)|(==|!=|<=|>=|&&|\|\||[-+*/%<>!?:()[\],.]))/y;
  let at = 0;
  while (at < source.length) {
    if (/^\s*$/.test(source.slice(at))) break;
    pattern.lastIndex = at;
    const m = pattern.exec(source);
    if (!m) throw new Error(`cannot read the expression at "${source.slice(at, at + 20)}"`);
    at = pattern.lastIndex;
    if (m[1] !== undefined) tokens.push({ kind: 'number', value: Number(m[1]) });
    else if (m[2] !== undefined) tokens.push({ kind: 'string', value: JSON.parse(m[2]) });
    else if (m[3] !== undefined) tokens.push({ kind: 'name', value: m[3] });
    else tokens.push({ kind: 'op', value: m[4] });
  }
  return tokens;
}

function parseExpression(source) {
  const tokens = tokenize(source);
  let i = 0;
  const peek = (value) => tokens[i] && tokens[i].kind === 'op' && tokens[i].value === value;
  const take = (value) => { if (!peek(value)) throw new Error(`expected "${value}" in ${source}`); i++; };
  const binary = (next, ops) => () => {
    let left = next();
    while (tokens[i] && tokens[i].kind === 'op' && ops.includes(tokens[i].value)) {
      const op = tokens[i++].value;
      left = { op, left, right: next() };
    }
    return left;
  };
  const primary = () => {
    const token = tokens[i++];
    if (!token) throw new Error(`unexpected end of ${source}`);
    if (token.kind === 'number' || token.kind === 'string') return { value: token.value };
    if (token.kind === 'op' && token.value === '(') { const inner = conditional(); take(')'); return inner; }
    if (token.kind === 'op' && token.value === '[') {
      const items = [];
      while (!peek(']')) { items.push(conditional()); if (!peek(']')) take(','); }
      take(']');
      return { items };
    }
    if (token.kind === 'name') {
      if (['true', 'false', 'null'].includes(token.value)) return { value: JSON.parse(token.value) };
      if (peek('(')) {
        take('(');
        const args = [];
        while (!peek(')')) { args.push(conditional()); if (!peek(')')) take(','); }
        take(')');
        return { call: token.value, args };
      }
      // A reference: name(.name | [expr])*
      const path = [token.value];
      for (;;) {
        if (peek('.')) { i++; path.push(tokens[i++].value); } else if (peek('[')) { i++; conditional(); take(']'); path.push('[]'); } else break;
      }
      return { ref: path };
    }
    throw new Error(`unexpected "${token.value}" in ${source}`);
  };
  const unary = () => {
    if (peek('!') || peek('-')) { const op = tokens[i++].value; return { op: `unary${op}`, left: unary() }; }
    return primary();
  };
  const multiplicative = binary(unary, ['*', '/', '%']);
  const additive = binary(multiplicative, ['+', '-']);
  const comparison = binary(additive, ['<', '<=', '>', '>=']);
  const equality = binary(comparison, ['==', '!=']);
  const and = binary(equality, ['&&']);
  const or = binary(and, ['||']);
  const conditional = () => {
    const condition = or();
    if (!peek('?')) return condition;
    i++;
    const then = conditional();
    take(':');
    return { condition, then, otherwise: conditional() };
  };
  const tree = conditional();
  if (i !== tokens.length) throw new Error(`unexpected "${tokens[i].value}" in ${source}`);
  return tree;
}

const FUNCTIONS = {
  floor: (x) => Math.floor(x),
  contains: (items, x) => items.includes(x),
  length: (x) => (typeof x === 'string' ? x.length : x.length ?? Object.keys(x).length),
};

function evalTree(node, vars) {
  if ('value' in node) return node.value;
  if (node.items) {
    const items = node.items.map((item) => evalTree(item, vars));
    return items.includes(UNKNOWN) ? UNKNOWN : items;
  }
  if (node.ref) {
    if (node.ref[0] === 'var' && node.ref.length === 2) {
      if (!(node.ref[1] in vars)) throw new Error(`var.${node.ref[1]} is not declared`);
      return vars[node.ref[1]];
    }
    return UNKNOWN;
  }
  if (node.call) {
    if (!(node.call in FUNCTIONS)) return UNKNOWN;
    const args = node.args.map((arg) => evalTree(arg, vars));
    return args.includes(UNKNOWN) ? UNKNOWN : FUNCTIONS[node.call](...args);
  }
  if (node.condition) {
    const condition = evalTree(node.condition, vars);
    if (condition === UNKNOWN) return UNKNOWN;
    return evalTree(condition ? node.then : node.otherwise, vars);
  }
  const left = evalTree(node.left, vars);
  if (node.op === 'unary!') return left === UNKNOWN ? UNKNOWN : !left;
  if (node.op === 'unary-') return left === UNKNOWN ? UNKNOWN : -left;
  if (node.op === '&&' && left === false) return false;
  if (node.op === '||' && left === true) return true;
  const right = evalTree(node.right, vars);
  if (left === UNKNOWN || right === UNKNOWN) return UNKNOWN;
  switch (node.op) {
    case '&&': return left && right;
    case '||': return left || right;
    case '==': return JSON.stringify(left) === JSON.stringify(right);
    case '!=': return JSON.stringify(left) !== JSON.stringify(right);
    case '<': return left < right;
    case '<=': return left <= right;
    case '>': return left > right;
    case '>=': return left >= right;
    case '+': return left + right;
    case '-': return left - right;
    case '*': return left * right;
    case '/': return left / right;
    case '%': return left % right;
    default: throw new Error(`operator ${node.op}`);
  }
}

/**
 * The value of an HCL attribute as hcl2json gives it: a literal stays as it is; "${expr}" (the whole
 * string one interpolation) is evaluated with the variables; anything else is UNKNOWN.
 */
export function evaluate(value, vars) {
  if (typeof value !== 'string') return value;
  const whole = /^\$\{([\s\S]*)\}$/.exec(value);
  if (!whole) return value.includes('${') ? UNKNOWN : value;
  return evalTree(parseExpression(whole[1]), vars);
}

// ---- the plan of a scenario ------------------------------------------------------------------

/** The declared variables' defaults (undefined for a required one). */
export function variableDefaults(tf) {
  return Object.fromEntries(blocks(tf, 'variable').map((v) => [v.name, v.body.default]));
}

/** Problems with giving `value` to variable `name`: undeclared, or refused by a validation. */
export function validationProblems(tf, name, value) {
  const variable = blocks(tf, 'variable').find((v) => v.name === name);
  if (!variable) return [`variable ${name} is not declared`];
  const vars = { ...variableDefaults(tf), [name]: value };
  const problems = [];
  for (const validation of list(variable.body.validation)) {
    const ok = evaluate(validation.condition, vars);
    if (ok === UNKNOWN) problems.push(`variable ${name}: cannot evaluate its validation ${validation.condition}`);
    else if (ok !== true) problems.push(`variable ${name} = ${JSON.stringify(value)} is refused: ${validation.error_message}`);
  }
  return problems;
}

/** Whether every variable of the scenario is declared in tf. */
export function scenarioApplies(tf, overrides) {
  const declared = new Set(blocks(tf, 'variable').map((v) => v.name));
  return Object.keys(overrides).every((name) => declared.has(name));
}

/**
 * The plan of tf under the variables' defaults and `overrides`: the instances and security groups
 * that exist (count evaluated) and their ingress rules (dynamic blocks expanded). problems lists
 * what could not be evaluated; an override refused by its validation throws.
 */
export function planFor(tf, overrides = {}) {
  for (const [name, value] of Object.entries(overrides)) {
    const refused = validationProblems(tf, name, value);
    if (refused.length > 0) throw new Error(refused.join('; '));
  }
  const vars = { ...variableDefaults(tf), ...overrides };
  const problems = [];
  const copies = (r) => {
    if (r.body.for_each !== undefined) { problems.push(`${r.type}.${r.name} uses for_each: use count`); return []; }
    if (r.body.count === undefined) return [{ ...r, id: `${r.type}.${r.name}`, index: undefined }];
    let n;
    try { n = evaluate(r.body.count, vars); } catch (e) { n = UNKNOWN; problems.push(`${r.type}.${r.name}: ${e.message}`); }
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
      problems.push(`${r.type}.${r.name} count ${r.body.count} does not evaluate to a whole number from the variables`);
      return [];
    }
    return Array.from({ length: n }, (_, index) => ({ ...r, id: `${r.type}.${r.name}[${index}]`, index }));
  };
  const resources = blocks(tf, 'resource').flatMap(copies);
  const plan = {
    tf, vars, problems,
    instances: resources.filter((r) => r.type === 'aws_instance'),
    groups: resources.filter((r) => r.type === 'aws_security_group'),
    resources,
  };
  plan.rules = ingressRules(plan);
  return plan;
}

/** Every ingress rule of the plan, normalised to {where, group, from, to, protocol, cidrs, groups, self, prefixLists}. */
export function ingressRules(plan) {
  const rules = [];
  const inline = (r, rule, where) => ({
    where, group: r.name, from: rule.from_port, to: rule.to_port,
    protocol: String(rule.protocol ?? 'tcp'), cidrs: [...list(rule.cidr_blocks), ...list(rule.ipv6_cidr_blocks)],
    groups: list(rule.security_groups), self: rule.self === true, prefixLists: list(rule.prefix_list_ids),
  });
  for (const r of plan.resources) {
    if (r.type === 'aws_security_group') {
      for (const rule of list(r.body.ingress)) rules.push(inline(r, rule, `${r.id} ingress`));
      for (const block of list(r.body.dynamic?.ingress)) {
        let each;
        try { each = evaluate(block.for_each, plan.vars); } catch (e) { each = UNKNOWN; }
        if (each === UNKNOWN || each === null || typeof each !== 'object') {
          plan.problems.push(`${r.id} dynamic "ingress" for_each ${block.for_each} does not evaluate from the variables`);
          continue;
        }
        const count = Array.isArray(each) ? each.length : Object.keys(each).length;
        for (let k = 0; k < count; k++) for (const content of list(block.content)) rules.push(inline(r, content, `${r.id} dynamic ingress`));
      }
    } else if (r.type === 'aws_security_group_rule' && r.body.type === 'ingress') {
      rules.push({
        where: r.id, group: groupName(r.body.security_group_id), from: r.body.from_port, to: r.body.to_port,
        protocol: String(r.body.protocol ?? 'tcp'), cidrs: [...list(r.body.cidr_blocks), ...list(r.body.ipv6_cidr_blocks)],
        groups: list(r.body.source_security_group_id), self: r.body.self === true, prefixLists: list(r.body.prefix_list_ids),
      });
    } else if (r.type === 'aws_vpc_security_group_ingress_rule') {
      rules.push({
        where: r.id, group: groupName(r.body.security_group_id), from: r.body.from_port, to: r.body.to_port,
        protocol: String(r.body.ip_protocol ?? 'tcp'), cidrs: [...list(r.body.cidr_ipv4), ...list(r.body.cidr_ipv6)],
        groups: list(r.body.referenced_security_group_id), self: false, prefixLists: list(r.body.prefix_list_id),
      });
    }
  }
  return rules;
}

function groupName(reference) {
  const match = /aws_security_group\.([A-Za-z0-9_-]+)(\[\d+\])?\.id/.exec(String(reference ?? ''));
  return match ? match[1] : String(reference);
}

/** True when the rule admits traffic to `port` (protocol -1/all covers every port). */
function covers(rule, port) {
  if (['-1', 'all'].includes(rule.protocol)) return true;
  const from = Number(rule.from);
  const to = Number(rule.to);
  if (!Number.isFinite(from) || !Number.isFinite(to)) return true; // an expression: assume the worst
  return from <= port && port <= to;
}

const onlyFrom = (rule, source) => rule.cidrs.length === 0 && rule.prefixLists.length === 0 &&
  (source === 'self' ? rule.self && rule.groups.length === 0 : !rule.self && rule.groups.length === 1 && rule.groups[0] === source);
const redisClusterCount = (plan) => plan.vars.redis_cluster_count ?? 0;
const sharded = (plan) => (plan.vars.shard_count ?? 1) > 1;

// ---- the rules: each takes a plan and returns a list of problems (empty = pass) -----------

export function checkEvaluates(plan) {
  return [...plan.problems];
}

export function checkHostCount(plan) {
  const problems = [];
  const expected = expectedHosts(plan.vars);
  const found = {};
  for (const r of plan.instances) found[r.name] = (found[r.name] ?? 0) + 1;
  for (const name of Object.keys(found)) if (!(name in expected)) problems.push(`unexpected aws_instance.${name}: the hosts are ${Object.keys(expected).join(', ')}`);
  for (const [name, count] of Object.entries(expected)) {
    if ((found[name] ?? 0) !== count) problems.push(`expected ${count} aws_instance.${name}, found ${found[name] ?? 0}`);
  }
  for (const r of blocks(plan.tf, 'resource').filter((x) => x.type === 'aws_instance' && ['app', 'db'].includes(x.name))) {
    if (r.body.count !== undefined || r.body.for_each !== undefined) problems.push(`aws_instance.${r.name} must not use count/for_each`);
  }
  return problems;
}

export function checkOneSubnet(plan) {
  const problems = [];
  const subnets = new Set(plan.instances.map((r) => r.body.subnet_id));
  if (subnets.size !== 1 || subnets.has(undefined)) problems.push(`every instance must name the same subnet_id, found ${[...subnets].join(', ')}`);
  for (const r of plan.instances) {
    if (r.body.availability_zone !== undefined) problems.push(`${r.id} sets availability_zone: the subnet decides it`);
  }
  const created = plan.resources.filter((r) => r.type === 'aws_subnet');
  if (created.length > 1) problems.push(`expected at most one aws_subnet, found ${created.length}`);
  for (const s of [...created, ...blocks(plan.tf, 'data').filter((d) => d.type === 'aws_subnet')]) {
    if (s.body.availability_zone !== '${var.availability_zone}') problems.push(`${s.type}.${s.name} must be in var.availability_zone`);
  }
  return problems;
}

export function checkDbPortsOnlyFromApp(plan) {
  const problems = [];
  const masters = redisClusterCount(plan);
  const ports = masters === 0 ? [...DB_PORTS, ...REDIS_CLUSTER_DB_PORTS] : DB_PORTS;
  for (const rule of plan.rules) {
    // The Redis Cluster hosts' own 7001 is the Redis Cluster rule's business.
    const covered = ports.filter((p) => covers(rule, p) && !(rule.group === 'redis_cluster' && p === REDIS_CLUSTER_PORT));
    if (covered.length === 0) continue;
    if (!onlyFrom(rule, APP_GROUP)) problems.push(`${rule.where} opens database port(s) ${covered.join(', ')} to something other than the app security group`);
  }
  for (const port of ports) {
    const reachable = plan.rules.some((rule) => rule.group === 'db' && covers(rule, port) && rule.groups.includes(APP_GROUP));
    if (!reachable) problems.push(`database port ${port} is not opened on the db security group to the app group`);
  }
  if (masters > 0) {
    for (const port of REDIS_CLUSTER_DB_PORTS) {
      if (plan.rules.some((rule) => rule.group === 'db' && covers(rule, port))) {
        problems.push(`the db security group opens ${port} although the Redis Cluster has hosts of its own (redis_cluster_count = ${masters})`);
      }
    }
  }
  return problems;
}

export function checkRedisCluster(plan) {
  const problems = [];
  const masters = redisClusterCount(plan);
  // The bus: between the masters of the cluster's own hosts, never anywhere else (on the db host
  // the three masters talk over the host itself).
  for (const rule of plan.rules) {
    const bus = REDIS_CLUSTER_BUS_PORTS.filter((p) => covers(rule, p));
    if (bus.length === 0) continue;
    if (rule.group !== 'redis_cluster' || !onlyFrom(rule, 'self')) problems.push(`${rule.where} opens the Redis Cluster bus port(s) ${bus.join(', ')} to something other than the masters themselves`);
  }
  const groups = plan.groups.filter((g) => g.name === 'redis_cluster');
  if (masters === 0) {
    if (groups.length > 0) problems.push('aws_security_group.redis_cluster exists although redis_cluster_count is 0');
    return problems;
  }
  if (groups.length !== 1) { problems.push(`expected one aws_security_group.redis_cluster for redis_cluster_count = ${masters}, found ${groups.length}`); return problems; }
  const own = plan.rules.filter((rule) => rule.group === 'redis_cluster');
  for (const rule of own.filter((r) => covers(r, REDIS_CLUSTER_PORT))) {
    if (!onlyFrom(rule, APP_GROUP) && !onlyFrom(rule, 'self')) problems.push(`${rule.where} opens ${REDIS_CLUSTER_PORT} to something other than the app group and the masters`);
  }
  if (!own.some((r) => covers(r, REDIS_CLUSTER_PORT) && onlyFrom(r, APP_GROUP))) problems.push(`${REDIS_CLUSTER_PORT} is not opened on the redis_cluster group to the app group`);
  if (!own.some((r) => covers(r, REDIS_CLUSTER_PORT) && onlyFrom(r, 'self'))) problems.push(`${REDIS_CLUSTER_PORT} is not opened between the masters (self)`);
  if (!own.some((r) => covers(r, REDIS_CLUSTER_PORT + 10000) && onlyFrom(r, 'self'))) problems.push(`the cluster bus ${REDIS_CLUSTER_PORT + 10000} is not opened between the masters (self)`);
  for (const host of plan.instances.filter((r) => r.name === 'redis_cluster')) {
    if (!list(host.body.vpc_security_group_ids).some((id) => groupName(id) === 'redis_cluster')) problems.push(`${host.id} is not in the redis_cluster security group`);
  }
  return problems;
}

export function checkServicePort(plan) {
  const problems = [];
  for (const rule of plan.rules.filter((r) => covers(r, SERVICE_PORT))) {
    const fromAdmin = rule.cidrs.length === 1 && rule.cidrs[0] === ADMIN_CIDR && rule.groups.length === 0 && !rule.self && rule.prefixLists.length === 0;
    const fromNodes = rule.group === 'app' && onlyFrom(rule, 'self');
    if (!fromAdmin && !fromNodes) problems.push(`${rule.where} opens the service port ${SERVICE_PORT} to something other than admin_cidr and the cluster's nodes`);
    if (fromNodes && !sharded(plan)) problems.push(`${rule.where} opens the service port between app hosts although shard_count is 1 (today's topology has no such rule)`);
  }
  if (sharded(plan) && !plan.rules.some((r) => r.group === 'app' && covers(r, SERVICE_PORT) && onlyFrom(r, 'self'))) {
    problems.push(`the sharded cluster's nodes cannot reach each other's service port ${SERVICE_PORT} (no self rule on the app group)`);
  }
  for (const node of plan.instances.filter((r) => r.name === 'kv_node')) {
    if (JSON.stringify(list(node.body.vpc_security_group_ids)) !== JSON.stringify([APP_GROUP])) problems.push(`${node.id} is not in the app security group (alone)`);
  }
  return problems;
}

export function checkNoOpenIngress(plan) {
  const problems = [];
  for (const rule of plan.rules) {
    for (const cidr of rule.cidrs) {
      if (OPEN_CIDRS.has(cidr)) problems.push(`${rule.where} is open to ${cidr}`);
    }
  }
  // A variable whose default is the whole internet would open whatever uses it.
  for (const v of blocks(plan.tf, 'variable')) {
    for (const value of list(v.body.default)) {
      if (OPEN_CIDRS.has(value)) problems.push(`variable ${v.name} defaults to ${value}`);
    }
  }
  return problems;
}

// AWS accepts only these characters in a security group rule's description (an apostrophe fails
// at apply time, which no static check of ours would otherwise notice).
const RULE_DESCRIPTION = /^[0-9A-Za-z_ .:/()#,@[\]+=&;{}!$*-]*$/;

export function checkDescriptions(plan) {
  const problems = [];
  for (const g of plan.resources.filter((r) => r.type === 'aws_security_group')) {
    const rules = [...list(g.body.ingress), ...list(g.body.egress), ...list(g.body.dynamic?.ingress).flatMap((d) => list(d.content))];
    if (typeof g.body.description !== 'string' || !RULE_DESCRIPTION.test(g.body.description)) problems.push(`${g.id} needs a description of the characters AWS accepts`);
    for (const rule of rules) {
      if (typeof rule.description !== 'string' || rule.description.length === 0) problems.push(`${g.id}: a rule has no description`);
      else if (!RULE_DESCRIPTION.test(rule.description)) problems.push(`${g.id}: "${rule.description}" has characters AWS refuses in a rule description`);
    }
  }
  return problems;
}

export function checkVariablesDescribed(plan) {
  const problems = [];
  const variables = blocks(plan.tf, 'variable');
  if (variables.length === 0) problems.push('no variables found');
  for (const v of variables) {
    if (typeof v.body.description !== 'string' || v.body.description.trim().length < 10) problems.push(`variable ${v.name} has no description`);
  }
  return problems;
}

// Patterns of real credentials; the generated password is referenced, never written.
const SECRET_PATTERNS = [
  [/\b(AKIA|ASIA)[0-9A-Z]{16}\b/, 'an AWS access key id'],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'a private key'],
  [/aws_secret_access_key|aws_session_token/i, 'an AWS secret key setting'],
  [/\b[a-z_]*(secret|token|password|passwd)\s*[=:]\s*"[^"$\s]{8,}"/i, 'a literal secret, token or password'],
  [/(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/, 'a 40-character secret-like string'],
];
const CREDENTIAL_ATTRIBUTES = /^(access_key|secret_key|token|password|master_password|secret|private_key)$/i;

export function checkNoCredentials(plan) {
  const { tf } = plan;
  const problems = [];
  for (const { name, text } of tf.raw) {
    for (const [pattern, what] of SECRET_PATTERNS) if (pattern.test(text)) problems.push(`${name} contains ${what}`);
  }
  // Provider credentials and literal values of credential attributes, anywhere in the tree.
  const visit = (node, path) => {
    if (Array.isArray(node)) { node.forEach((child) => visit(child, path)); return; }
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (CREDENTIAL_ATTRIBUTES.test(key) && list(value).some(isLiteral)) problems.push(`${path}.${key} is a literal credential`);
      visit(value, `${path}.${key}`);
    }
  };
  for (const { name, json } of tf.files) visit(json, name);
  for (const v of blocks(tf, 'variable')) {
    if (/password|secret|token/i.test(v.name) && v.body.default !== undefined && v.body.default !== '') problems.push(`variable ${v.name} has a default value`);
  }
  return problems;
}

/** The template file a host's user_data renders, or null. */
function userDataTemplate(r) {
  const template = /templatefile\("\$\{path\.module\}\/([^"]+)"/.exec(String(r.body.user_data ?? ''));
  return template ? template[1] : null;
}

export function checkHosts(plan) {
  const { tf } = plan;
  const problems = [];
  const amis = blocks(tf, 'data').filter((d) => d.type === 'aws_ami');
  if (!amis.some((a) => list(a.body.owners).includes(DEBIAN_OWNER))) problems.push(`no aws_ami data source owned by Debian (${DEBIAN_OWNER})`);
  for (const a of amis) {
    const names = list(a.body.filter).filter((f) => f.name === 'name').flatMap((f) => list(f.values));
    if (!names.some((n) => n.startsWith('debian-12-'))) problems.push(`data.aws_ami.${a.name} does not select debian-12 images`);
  }
  for (const r of plan.instances) {
    const root = list(r.body.root_block_device)[0];
    if (!root || root.volume_type !== 'gp3') problems.push(`${r.id} root volume is not gp3`);
    if (!root || !String(root.volume_size ?? '').startsWith('${var.')) problems.push(`${r.id} root volume size is not set by a variable`);
    const script = HOST_SCRIPTS[r.name];
    const template = userDataTemplate(r);
    if (!template) { problems.push(`${r.id} user_data is not a templatefile()`); continue; }
    const file = join(tf.dir, template);
    if (!existsSync(file)) problems.push(`${r.id} user_data template ${template} does not exist`);
    else if (script && !readFileSync(file, 'utf8').includes(script)) problems.push(`${template} does not run ${script}`);
  }
  const userData = (name) => String(plan.instances.find((x) => x.name === name)?.body.user_data ?? '');
  if (plan.instances.some((x) => x.name === 'app') && !userData('app').includes('aws_instance.db.private_ip')) problems.push('the app host is not given the db host private IP');
  if (plan.instances.some((x) => x.name === 'kv_node') && !userData('kv_node').includes('aws_instance.kv_db[count.index].private_ip')) {
    problems.push('a node host is not given its own db host (aws_instance.kv_db[count.index].private_ip)');
  }
  if (plan.instances.some((x) => x.name === 'redis_cluster') && !/command\s*=\s*"redis-cluster"/.test(userData('redis_cluster'))) {
    problems.push('the Redis Cluster hosts do not run db.sh redis-cluster');
  }
  return problems;
}

// The settings of the sharded cluster and the Redis Cluster reach every service host: the node
// list, the node's own URL and the Redis Cluster's masters are passed to its template, which writes
// them to provision.env; node hosts and Redis Cluster masters have fixed addresses (the lists are
// written before the hosts exist); the app host has one only in a sharded cluster.
export function checkClusterSettings(plan) {
  const problems = [];
  const services = plan.instances.filter((r) => r.name === 'app' || r.name === 'kv_node');
  if (services.length === 0) problems.push('no service host (aws_instance.app)');
  for (const r of services) {
    const userData = String(r.body.user_data ?? '');
    for (const arg of ['cluster_nodes', 'cluster_self', 'redis_cluster', 'kv_default']) {
      if (!new RegExp(`\\b${arg}\\s*=`).test(userData)) problems.push(`${r.id} does not pass ${arg} to its user_data template`);
    }
    if (!userData.includes('local.node_urls')) problems.push(`${r.id} is not given the node list (local.node_urls)`);
    const template = userDataTemplate(r);
    const text = template && existsSync(join(plan.tf.dir, template)) ? readFileSync(join(plan.tf.dir, template), 'utf8') : '';
    for (const line of ['CLUSTER_NODES=${cluster_nodes}', 'CLUSTER_SELF=${cluster_self}', 'REDIS_CLUSTER=${redis_cluster}', 'KV_DEFAULT=${kv_default}']) {
      if (!text.includes(line)) problems.push(`${template ?? r.id + ' user_data'} does not write ${line}`);
    }
  }
  const app = plan.instances.find((r) => r.name === 'app');
  if (app) {
    let ip;
    try { ip = evaluate(app.body.private_ip, plan.vars); } catch (e) { ip = UNKNOWN; }
    if (!sharded(plan) && ip !== undefined && ip !== null) problems.push('the app host has a fixed private_ip although shard_count is 1');
    if (sharded(plan) && (ip === undefined || ip === null)) problems.push('the app host (node 0) has no fixed private_ip in a sharded cluster');
  }
  for (const r of plan.instances.filter((x) => x.name === 'kv_node' || x.name === 'redis_cluster')) {
    if (r.body.private_ip === undefined) problems.push(`${r.id} has no fixed private_ip: the other hosts' lists could not name it`);
  }
  return problems;
}

export const RULES = {
  'every count and dynamic for_each evaluates from the variables': checkEvaluates,
  'the hosts: db and app by default, node and db pairs by shard_count, Redis Cluster hosts by redis_cluster_count': checkHostCount,
  'every instance in one subnet of one availability zone': checkOneSubnet,
  'database ports reachable only from the app security group': checkDbPortsOnlyFromApp,
  'Redis Cluster: 7001 from the app group and the masters, the bus only between the masters': checkRedisCluster,
  'service port from admin_cidr, and between the nodes only in a sharded cluster': checkServicePort,
  'no ingress open to 0.0.0.0/0 or ::/0': checkNoOpenIngress,
  'security groups and rules described in characters AWS accepts': checkDescriptions,
  'every variable has a description': checkVariablesDescribed,
  'no credentials in the files': checkNoCredentials,
  'Debian 12 AMI, gp3 root volumes, user_data runs infra/provision': checkHosts,
  'cluster settings and fixed addresses reach every service host': checkClusterSettings,
};

/** Runs one rule under every scenario that applies to tf; problems are prefixed with the scenario. */
export function runRule(rule, tf) {
  const problems = [];
  for (const [scenario, overrides] of Object.entries(SCENARIOS)) {
    if (!scenarioApplies(tf, overrides)) continue;
    let plan;
    try { plan = planFor(tf, overrides); } catch (e) { problems.push(`[${scenario}] ${e.message}`); continue; }
    for (const problem of rule(plan)) problems.push(`[${scenario}] ${problem}`);
  }
  return problems;
}

/** Runs every rule; returns { rule: problems[] }. */
export async function checkDirectory(dir) {
  const tf = await loadTerraform(dir);
  return Object.fromEntries(Object.entries(RULES).map(([title, rule]) => [title, runRule(rule, tf)]));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = resolve(process.argv[2] ?? TERRAFORM_DIR);
  const results = await checkDirectory(dir);
  let failed = 0;
  for (const [title, problems] of Object.entries(results)) {
    console.log(`${problems.length === 0 ? 'ok  ' : 'FAIL'} ${title}`);
    for (const problem of problems) console.log(`       ${problem}`);
    if (problems.length > 0) failed++;
  }
  console.log(`terraform: ${Object.keys(results).length - failed} passed, ${failed} failed (${dir})`);
  process.exitCode = failed === 0 ? 0 : 1;
}
