# `terraform test` (after `terraform init`): plans and applies the configuration against mocked
# providers, so it needs neither AWS credentials nor an account, and creates nothing. It checks
# what the static checks (infra/test/) cannot: that Terraform itself accepts the expressions,
# finds no dependency cycle between the hosts' addresses and user_data, and renders the lists.
mock_provider "aws" {
  mock_data "aws_ami" {
    defaults = { id = "ami-0123456789abcdef0" }
  }
  mock_resource "aws_instance" {
    defaults = { private_ip = "10.42.1.99", public_ip = "198.18.0.1" }
  }
}

mock_provider "random" {}

variables {
  admin_cidr = "198.18.7.42/32"
  key_name   = "test-key"
  repo_url   = "https://example.com/IntegrationService.git"
}

run "defaults_are_the_two_host_topology" {
  command = apply

  assert {
    condition     = length(aws_instance.kv_node) == 0 && length(aws_instance.kv_db) == 0 && length(aws_instance.redis_cluster) == 0
    error_message = "the default topology has hosts besides db and app"
  }
  assert {
    condition     = length(aws_security_group.redis_cluster) == 0
    error_message = "the default topology has a Redis Cluster security group"
  }
  assert {
    condition     = length([for r in aws_security_group.app.ingress : r if r.self == true]) == 0
    error_message = "the default app group opens ports between app hosts"
  }
  assert {
    condition     = length([for r in aws_security_group.db.ingress : r if r.from_port == 7001 && r.to_port == 7003]) == 1
    error_message = "the db group does not open the db host's Redis Cluster masters 7001-7003"
  }
  assert {
    condition     = length(output.node_urls) == 0
    error_message = "a single node has no node list"
  }
  assert {
    condition     = output.redis_cluster_endpoints == "10.42.1.99:7001,10.42.1.99:7002,10.42.1.99:7003"
    error_message = "Redis__Cluster is not the db host's three masters: ${output.redis_cluster_endpoints}"
  }
  assert {
    condition     = strcontains(aws_instance.db.user_data, "REDIS_CLUSTER_PORTS=\"7001 7002 7003\"")
    error_message = "the db host does not run the Redis Cluster's masters"
  }
  assert {
    condition     = strcontains(aws_instance.app.user_data, "CLUSTER_NODES=\n") && strcontains(aws_instance.app.user_data, "INSTALL_TANK=yes")
    error_message = "the single app host is given a node list, or no tank"
  }
}

run "sharded_cluster_and_redis_cluster_hosts" {
  command = apply

  variables {
    shard_count         = 3
    redis_cluster_count = 3
    kv_default          = "tarantool-memtx"
  }

  assert {
    condition     = length(aws_instance.kv_node) == 2 && length(aws_instance.kv_db) == 2 && length(aws_instance.redis_cluster) == 3
    error_message = "expected 2 node hosts, 2 db hosts of theirs and 3 Redis Cluster hosts"
  }
  assert {
    condition     = aws_instance.app.private_ip == "10.42.1.20" && aws_instance.kv_node[1].private_ip == "10.42.1.22"
    error_message = "the nodes do not have the fixed addresses cluster_host_number + i"
  }
  assert {
    condition     = join(",", output.node_urls) == "http://10.42.1.20:8080,http://10.42.1.21:8080,http://10.42.1.22:8080"
    error_message = "node_urls: ${join(",", output.node_urls)}"
  }
  assert {
    condition     = strcontains(aws_instance.kv_node[1].user_data, "CLUSTER_SELF=http://10.42.1.22:8080") && strcontains(aws_instance.kv_node[1].user_data, "INSTALL_TANK=no") && strcontains(aws_instance.kv_node[1].user_data, "KV_DEFAULT=tarantool-memtx")
    error_message = "node 2's user_data does not name it, or installs the tank"
  }
  assert {
    condition     = strcontains(aws_instance.app.user_data, "CLUSTER_NODES=http://10.42.1.20:8080,http://10.42.1.21:8080,http://10.42.1.22:8080") && strcontains(aws_instance.app.user_data, "CLUSTER_SELF=http://10.42.1.20:8080")
    error_message = "node 0 (the app host) is not given the node list and its own URL"
  }
  assert {
    condition     = output.redis_cluster_endpoints == "10.42.1.36:7001,10.42.1.37:7001,10.42.1.38:7001"
    error_message = "redis_cluster_endpoints: ${output.redis_cluster_endpoints}"
  }
  assert {
    condition     = strcontains(aws_instance.redis_cluster[0].user_data, "REDIS_CLUSTER_MASTERS=\"10.42.1.36:7001 10.42.1.37:7001 10.42.1.38:7001\"") && strcontains(aws_instance.redis_cluster[1].user_data, "REDIS_CLUSTER_MASTERS=\"\"")
    error_message = "master 0 is not the one that creates the cluster of all masters"
  }
  assert {
    condition     = strcontains(aws_instance.redis_cluster[2].user_data, "infra/provision/db.sh\" redis-cluster")
    error_message = "a Redis Cluster host does not run db.sh redis-cluster"
  }
  assert {
    condition     = strcontains(aws_instance.db.user_data, "REDIS_CLUSTER_PORTS=\"\"") && strcontains(aws_instance.kv_db[0].user_data, "REDIS_CLUSTER_PORTS=\"\"")
    error_message = "a db host runs Redis Cluster masters although the cluster has hosts of its own"
  }
  assert {
    condition     = length([for r in aws_security_group.app.ingress : r if r.self == true && r.from_port == 8080 && r.to_port == 8080]) == 1
    error_message = "the nodes cannot reach each other's service port"
  }
  assert {
    condition     = length([for r in aws_security_group.db.ingress : r if r.from_port == 7001]) == 0
    error_message = "the db group opens 7001-7003 although the masters have hosts of their own"
  }
  assert {
    condition     = length([for r in aws_security_group.redis_cluster[0].ingress : r if r.from_port == 17001 && r.self == true && try(length(r.security_groups), 0) == 0 && try(length(r.cidr_blocks), 0) == 0]) == 1
    error_message = "the cluster bus is not open between the masters only"
  }
}

run "sharded_cluster_refuses_a_shared_redis_cluster_store" {
  command = plan

  variables {
    shard_count = 2
    kv_default  = "redis-cluster"
  }

  expect_failures = [aws_instance.kv_node]
}

run "redis_cluster_needs_three_masters" {
  command = plan

  variables {
    redis_cluster_count = 2
  }

  expect_failures = [var.redis_cluster_count]
}
