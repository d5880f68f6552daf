// node --test: the Terraform in infra/terraform passes every topology rule under every scenario
// (defaults, sharded cluster, Redis Cluster hosts), and each rule fails on a deliberately bad
// fixture (so a rule that can no longer fail is noticed). Then the plans of the scenarios host by
// host and rule by rule, the variables' validations, and the service settings app.sh writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import {
  RULES, SCENARIOS, TERRAFORM_DIR, UNKNOWN, evaluate, loadTerraform, planFor, runRule, scenarioApplies, validationProblems,
} from './check-terraform.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '../..');
const BAD = join(HERE, 'fixtures/bad');
const CHECKER = join(HERE, 'check-terraform.mjs');

const real = await loadTerraform(TERRAFORM_DIR);
const bad = await loadTerraform(BAD);

for (const [title, rule] of Object.entries(RULES)) {
  test(`infra/terraform: ${title}`, () => {
    assert.deepEqual(runRule(rule, real), []);
  });
  test(`bad fixture fails: ${title}`, () => {
    assert.notEqual(runRule(rule, bad).length, 0, `the rule found nothing wrong in ${BAD}`);
  });
}

test('every scenario applies to infra/terraform (none is skipped)', () => {
  for (const [name, overrides] of Object.entries(SCENARIOS)) assert.ok(scenarioApplies(real, overrides), name);
});

// "port/source" for each ingress rule of a group, sorted: source is admin, app, self or a CIDR.
const ingressOf = (plan, group) => plan.rules.filter((r) => r.group === group).map((r) => {
  const source = r.self ? 'self' : r.groups.length > 0 ? r.groups.map((g) => g.replace(/^\$\{aws_security_group\.(\w+)\.id\}$/, '$1')).join('+')
    : r.cidrs.map((c) => (c === '${var.admin_cidr}' ? 'admin' : c)).join('+');
  return `${r.from === r.to ? r.from : `${r.from}-${r.to}`}/${source}`;
}).sort();
const ids = (plan) => plan.instances.map((r) => r.id).sort();
const groupIds = (plan) => plan.groups.map((r) => r.id).sort();

test('default plan: today\'s two hosts, two groups, and their rules (plus the db host\'s Redis Cluster masters)', () => {
  const plan = planFor(real);
  assert.deepEqual(ids(plan), ['aws_instance.app', 'aws_instance.db']);
  assert.deepEqual(groupIds(plan), ['aws_security_group.app', 'aws_security_group.db']);
  assert.deepEqual(ingressOf(plan, 'app'), ['22/admin', '8080/admin']);
  assert.deepEqual(ingressOf(plan, 'db'), [
    '11300/app', '22/admin', '3301/app', '4222/app', '5432/app', '5672/app', '6379/app', '6380/app', '6381/app', '6382/app', '7001-7003/app',
  ]);
  const app = plan.instances.find((r) => r.name === 'app');
  assert.equal(evaluate(app.body.private_ip, plan.vars), null, 'the app host keeps the address AWS assigns');
});

test('shard_count = 3: node hosts 1 and 2 with a db host each, 8080 open between the app group\'s hosts', () => {
  const plan = planFor(real, { shard_count: 3 });
  assert.deepEqual(ids(plan), [
    'aws_instance.app', 'aws_instance.db', 'aws_instance.kv_db[0]', 'aws_instance.kv_db[1]', 'aws_instance.kv_node[0]', 'aws_instance.kv_node[1]',
  ]);
  assert.deepEqual(groupIds(plan), ['aws_security_group.app', 'aws_security_group.db']);
  assert.deepEqual(ingressOf(plan, 'app'), ['22/admin', '8080/admin', '8080/self']);
  const app = plan.instances.find((r) => r.name === 'app');
  assert.equal(evaluate(app.body.private_ip, plan.vars), UNKNOWN, 'node 0 has the fixed address local.node_ips[0]');
  for (const node of plan.instances.filter((r) => r.name === 'kv_node')) {
    assert.match(node.body.user_data, /install_tank\s*=\s*"no"/);
    assert.match(node.body.user_data, /cluster_self\s*=\s*local\.node_urls\[count\.index \+ 1\]/);
  }
  assert.match(app.body.user_data, /cluster_self\s*=\s*local\.sharded \? local\.node_urls\[0\] : ""/);
});

test('redis_cluster_count = 3: three Redis Cluster hosts in their own group, 7001-7003 closed on the db host', () => {
  const plan = planFor(real, { redis_cluster_count: 3 });
  assert.deepEqual(ids(plan), [
    'aws_instance.app', 'aws_instance.db', 'aws_instance.redis_cluster[0]', 'aws_instance.redis_cluster[1]', 'aws_instance.redis_cluster[2]',
  ]);
  assert.deepEqual(groupIds(plan), ['aws_security_group.app', 'aws_security_group.db', 'aws_security_group.redis_cluster[0]']);
  assert.deepEqual(ingressOf(plan, 'redis_cluster'), ['17001/self', '22/admin', '7001/app', '7001/self']);
  assert.ok(!ingressOf(plan, 'db').some((rule) => rule.startsWith('700')), ingressOf(plan, 'db').join(' '));
  const masters = plan.instances.filter((r) => r.name === 'redis_cluster');
  for (const host of masters) assert.match(host.body.user_data, /command\s*=\s*"redis-cluster"/);
  // Master 0 is given every master and creates the cluster; the others only run theirs.
  assert.match(masters[0].body.user_data, /redis_cluster_masters\s*=\s*count\.index == 0 \? join\(" ", local\.redis_host_masters\) : ""/);
});

test('validations: shard_count 1-16 and redis_cluster_count 0 or 3-16, whole numbers; kv_default a key-value store', () => {
  for (const n of [1, 2, 16]) assert.deepEqual(validationProblems(real, 'shard_count', n), [], `shard_count ${n}`);
  for (const n of [0, 17, 1.5, -1]) assert.notDeepEqual(validationProblems(real, 'shard_count', n), [], `shard_count ${n}`);
  for (const n of [0, 3, 5, 16]) assert.deepEqual(validationProblems(real, 'redis_cluster_count', n), [], `redis_cluster_count ${n}`);
  for (const n of [1, 2, 17, 3.5, -3]) assert.notDeepEqual(validationProblems(real, 'redis_cluster_count', n), [], `redis_cluster_count ${n}`);
  for (const n of [4, 20, 200]) assert.deepEqual(validationProblems(real, 'cluster_host_number', n), [], `cluster_host_number ${n}`);
  for (const n of [3, 201]) assert.notDeepEqual(validationProblems(real, 'cluster_host_number', n), [], `cluster_host_number ${n}`);
  for (const s of ['postgres', 'tarantool-memtx', 'tarantool-vinyl', 'redis-persistent', 'redis-cluster']) assert.deepEqual(validationProblems(real, 'kv_default', s), [], s);
  assert.notDeepEqual(validationProblems(real, 'kv_default', 'redis-cache'), []);
  assert.throws(() => planFor(real, { redis_cluster_count: 2 }), /at least three masters/);
});

test('the evaluator: variables, conditionals, lists and functions; other references are unknown', () => {
  const vars = { a: 2, b: 0, s: 'x' };
  assert.deepEqual(evaluate('${var.a > 1 ? ["on"] : []}', vars), ['on']);
  assert.deepEqual(evaluate('${var.b > 1 ? ["on"] : []}', vars), []);
  assert.equal(evaluate('${var.a - 1}', vars), 1);
  assert.equal(evaluate('${var.b == 0 || (var.b >= 3 && floor(var.b) == var.b)}', vars), true);
  assert.equal(evaluate('${contains(["x", "y"], var.s)}', vars), true);
  assert.equal(evaluate('${!(var.a == 2)}', vars), false);
  assert.equal(evaluate('${local.n}', vars), UNKNOWN);
  assert.equal(evaluate('${var.b > 0 ? local.n : null}', vars), null);
  assert.equal(evaluate('${length(local.n)}', vars), UNKNOWN);
  assert.equal(evaluate(7, vars), 7);
  assert.throws(() => evaluate('${var.missing}', vars), /not declared/);
});

test('outputs: the node URLs and the Redis Cluster endpoints, described', () => {
  const outputs = Object.assign({}, ...real.files.map((f) => f.json.output ?? {}));
  for (const name of ['node_urls', 'node_public_ips', 'shard_db_private_ips', 'ssh_nodes', 'redis_cluster_endpoints', 'ssh_redis_cluster']) {
    assert.ok(outputs[name], `output ${name} missing`);
    assert.ok(String(outputs[name][0].description ?? '').length > 10, `output ${name} has no description`);
  }
  assert.equal(outputs.node_urls[0].value, '${local.node_urls}');
  assert.equal(outputs.redis_cluster_endpoints[0].value, '${local.redis_cluster_endpoints}');
});

// The options classes the service binds, by section: { Cluster: 'ClusterOptions.cs text', … }.
function optionSections() {
  const sources = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) { if (!['bin', 'obj'].includes(entry.name)) walk(join(dir, entry.name)); } else if (entry.name.endsWith('.cs')) sources.push(readFileSync(join(dir, entry.name), 'utf8'));
    }
  };
  walk(join(ROOT, 'IntegrationService'));
  const sections = {};
  for (const text of sources) {
    for (const [, type, section] of text.matchAll(/AddOptions<(\w+)>\(\)\s*\.BindConfiguration\("(\w+)"\)/g)) {
      sections[section] = sources.find((t) => new RegExp(`\\bclass ${type}\\b`).test(t)) ?? '';
    }
  }
  return sections;
}

test('app.sh writes the service\'s real settings: Cluster__Nodes/Self, Redis__Cluster, Kv__Default among them', () => {
  const appSh = readFileSync(join(ROOT, 'infra/provision/app.sh'), 'utf8');
  // Section__Key= at the start of a line of the service.env heredoc, or of a printf'd line (after ' or \n).
  const keys = [...new Set([...appSh.matchAll(/(?:^|\\n|')([A-Z][A-Za-z]+)__([A-Za-z]+)=/gm)].map((m) => `${m[1]}__${m[2]}`))];
  for (const key of ['Cluster__Nodes', 'Cluster__Self', 'Redis__Cluster', 'Redis__Password', 'Kv__Default']) assert.ok(keys.includes(key), `app.sh does not write ${key}`);
  const sections = optionSections();
  for (const key of keys) {
    const [section, property] = key.split('__');
    assert.ok(sections[section], `${key}: the service binds no "${section}" section`);
    assert.match(sections[section], new RegExp(`public [\\w?<>]+ ${property} \\{ get; set; \\}`), `${key}: ${section} has no property ${property}`);
  }
});

test('the db template hands db.sh its command and the Redis Cluster settings, and db.sh reads them', () => {
  const template = readFileSync(join(TERRAFORM_DIR, 'templates/db.yaml.tftpl'), 'utf8');
  assert.match(template, /REDIS_CLUSTER_PORTS="\$\{redis_cluster_ports\}"/);
  assert.match(template, /REDIS_CLUSTER_MASTERS="\$\{redis_cluster_masters\}"/);
  assert.match(template, /infra\/provision\/db\.sh" \$\{command\}/);
  const dbSh = readFileSync(join(ROOT, 'infra/provision/db.sh'), 'utf8');
  assert.match(dbSh, /^\s*redis-cluster\) redis_cluster_host ;;$/m);
  assert.match(dbSh, /REDIS_CLUSTER_MASTERS="\$\{REDIS_CLUSTER_MASTERS:-\}"/);
  assert.match(dbSh, /--cluster create/);
});

test('every .tf file in infra/terraform parses', () => {
  const names = real.files.map((f) => f.name).sort();
  for (const expected of ['main.tf', 'outputs.tf', 'variables.tf', 'versions.tf']) assert.ok(names.includes(expected), `${expected} missing`);
});

test('the checker exits 0 on infra/terraform and 1 on the bad fixture', () => {
  const good = spawnSync(process.execPath, [CHECKER, TERRAFORM_DIR], { encoding: 'utf8' });
  assert.equal(good.status, 0, good.stdout + good.stderr);
  const failing = spawnSync(process.execPath, [CHECKER, BAD], { encoding: 'utf8' });
  assert.equal(failing.status, 1, failing.stdout + failing.stderr);
  assert.match(failing.stdout, /FAIL database ports reachable only from the app security group/);
  assert.match(failing.stdout, /FAIL Redis Cluster: 7001 from the app group and the masters, the bus only between the masters/);
});

test('the versions pin Terraform >= 1.5 and the AWS provider ~> 5', () => {
  const versions = real.files.find((f) => f.name === 'versions.tf').json.terraform[0];
  assert.equal(versions.required_version, '>= 1.5');
  assert.match(versions.required_providers[0].aws.version, /^~> 5(\.|$)/);
});
