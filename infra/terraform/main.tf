# Two hosts in one subnet of one availability zone, as in the original study:
#   db  - PostgreSQL, Tarantool, four Redis instances, Beanstalkd, RabbitMQ, NATS, and
#         the Redis Cluster's three masters unless it has hosts of its own  (infra/provision/db.sh)
#   app - the service in Docker, Yandex.Tank and wrk                       (infra/provision/app.sh)
# Optionally, in the same subnet (both off by default):
#   shard_count = N >= 2      the sharded key-value cluster: the app host is node 0 (its store on the
#                             db host); kv_node[i] + kv_db[i] are node i+1 and its own store
#   redis_cluster_count >= 3  the Redis Cluster on hosts of its own, one master each
# Every host is provisioned by cloud-init from a clone of this repository, with the same
# infra/config/ files that script/services uses locally.

locals {
  # Ports the app host reaches on the db host; nothing else may reach them.
  db_ports = {
    postgres         = 5432
    tarantool        = 3301
    redis_cache      = 6379
    redis_persistent = 6380
    redis_aof        = 6381
    redis_rdb        = 6382
    beanstalkd       = 11300
    rabbitmq         = 5672
    nats             = 4222
  }
  service_port = 8080
  ssh_user     = "admin" # Debian's cloud images log in as admin

  # The Redis Cluster: three masters on the db host (7001-7003), or one per host of its own on 7001.
  # A master's cluster bus is its port + 10000 (17001-17003); only the masters talk on it.
  redis_cluster_db_ports = [7001, 7002, 7003]
  redis_cluster_port     = 7001
  redis_cluster_bus_port = 17001

  vpc_id      = var.use_default_vpc ? data.aws_vpc.default[0].id : aws_vpc.bench[0].id
  subnet_id   = var.use_default_vpc ? data.aws_subnet.default[0].id : aws_subnet.bench[0].id
  subnet_cidr = var.use_default_vpc ? data.aws_subnet.default[0].cidr_block : aws_subnet.bench[0].cidr_block

  # Fixed private addresses (cidrhost of the subnet), so that every node's and master's user_data can
  # list all of them before any exists: node i is cluster_host_number + i, Redis Cluster master i is
  # cluster_host_number + 16 + i.
  sharded            = var.shard_count > 1
  node_ips           = [for i in range(var.shard_count) : cidrhost(local.subnet_cidr, var.cluster_host_number + i)]
  node_urls          = local.sharded ? [for ip in local.node_ips : "http://${ip}:${local.service_port}"] : []
  redis_ips          = [for i in range(var.redis_cluster_count) : cidrhost(local.subnet_cidr, var.cluster_host_number + 16 + i)]
  redis_host_masters = [for ip in local.redis_ips : "${ip}:${local.redis_cluster_port}"]

  # Redis__Cluster of every node: the seed masters (the client discovers the cluster from them).
  redis_cluster_endpoints = join(",", var.redis_cluster_count > 0 ? local.redis_host_masters : [
    for port in local.redis_cluster_db_ports : "${aws_instance.db.private_ip}:${port}"
  ])
}

# Debian 12 (bookworm) published by Debian itself (account 136693071363), newest first.
data "aws_ami" "debian12" {
  most_recent = true
  owners      = ["136693071363"]

  filter {
    name   = "name"
    values = ["debian-12-${var.architecture}-*"]
  }

  filter {
    name   = "virtualization-type"
    values = ["hvm"]
  }
}

# ---- network: a dedicated VPC with one public subnet, or the default VPC -------------------

resource "aws_vpc" "bench" {
  count                = var.use_default_vpc ? 0 : 1
  cidr_block           = var.vpc_cidr
  enable_dns_support   = true
  enable_dns_hostnames = true

  tags = { Name = "${var.name}-vpc" }
}

resource "aws_internet_gateway" "bench" {
  count  = var.use_default_vpc ? 0 : 1
  vpc_id = aws_vpc.bench[0].id

  tags = { Name = "${var.name}-igw" }
}

resource "aws_subnet" "bench" {
  count                   = var.use_default_vpc ? 0 : 1
  vpc_id                  = aws_vpc.bench[0].id
  cidr_block              = var.subnet_cidr
  availability_zone       = var.availability_zone
  map_public_ip_on_launch = true

  tags = { Name = "${var.name}-public-${var.availability_zone}" }
}

resource "aws_route_table" "bench" {
  count  = var.use_default_vpc ? 0 : 1
  vpc_id = aws_vpc.bench[0].id

  route {
    cidr_block = "0.0.0.0/0"
    gateway_id = aws_internet_gateway.bench[0].id
  }

  tags = { Name = "${var.name}-public" }
}

resource "aws_route_table_association" "bench" {
  count          = var.use_default_vpc ? 0 : 1
  subnet_id      = aws_subnet.bench[0].id
  route_table_id = aws_route_table.bench[0].id
}

data "aws_vpc" "default" {
  count   = var.use_default_vpc ? 1 : 0
  default = true
}

data "aws_subnet" "default" {
  count             = var.use_default_vpc ? 1 : 0
  vpc_id            = data.aws_vpc.default[0].id
  availability_zone = var.availability_zone
  default_for_az    = true
}

# ---- security groups ------------------------------------------------------------------------

resource "aws_security_group" "app" {
  name        = "${var.name}-app"
  description = "IntegrationService app host: SSH and the service port from admin_cidr only"
  vpc_id      = local.vpc_id

  ingress {
    description = "SSH from the administrator"
    protocol    = "tcp"
    from_port   = 22
    to_port     = 22
    cidr_blocks = [var.admin_cidr]
  }

  ingress {
    description = "Service HTTP (API, /health, /swagger) from the administrator"
    protocol    = "tcp"
    from_port   = 8080
    to_port     = 8080
    cidr_blocks = [var.admin_cidr]
  }

  # The sharded cluster's nodes (the app host and every kv_node, all in this group) forward requests
  # for keys they do not own to the owner's service port.
  dynamic "ingress" {
    for_each = var.shard_count > 1 ? ["cluster"] : []
    content {
      description = "Service HTTP between the nodes of the sharded cluster (proxy to the owner of a key)"
      protocol    = "tcp"
      from_port   = 8080
      to_port     = 8080
      self        = true
    }
  }

  egress {
    description = "Everything out: packages, git, container images, the db host"
    protocol    = "-1"
    from_port   = 0
    to_port     = 0
    cidr_blocks = ["0.0.0.0/0"]
  }

  tags = { Name = "${var.name}-app" }
}

# Every database port is open to the app host's security group and to nothing else.
resource "aws_security_group" "db" {
  name        = "${var.name}-db"
  description = "IntegrationService db host: database ports from the app group only, SSH from admin_cidr"
  vpc_id      = local.vpc_id

  ingress {
    description = "SSH from the administrator"
    protocol    = "tcp"
    from_port   = 22
    to_port     = 22
    cidr_blocks = [var.admin_cidr]
  }

  ingress {
    description     = "PostgreSQL from the app host"
    protocol        = "tcp"
    from_port       = 5432
    to_port         = 5432
    security_groups = [aws_security_group.app.id]
  }

  ingress {
    description     = "Tarantool from the app host"
    protocol        = "tcp"
    from_port       = 3301
    to_port         = 3301
    security_groups = [aws_security_group.app.id]
  }

  ingress {
    description     = "Redis cache instance from the app host"
    protocol        = "tcp"
    from_port       = 6379
    to_port         = 6379
    security_groups = [aws_security_group.app.id]
  }

  ingress {
    description     = "Redis persistent instance from the app host"
    protocol        = "tcp"
    from_port       = 6380
    to_port         = 6380
    security_groups = [aws_security_group.app.id]
  }

  ingress {
    description     = "Redis queue instance redis-aof from the app host"
    protocol        = "tcp"
    from_port       = 6381
    to_port         = 6381
    security_groups = [aws_security_group.app.id]
  }

  ingress {
    description     = "Redis queue instance redis-rdb from the app host"
    protocol        = "tcp"
    from_port       = 6382
    to_port         = 6382
    security_groups = [aws_security_group.app.id]
  }

  ingress {
    description     = "Beanstalkd from the app host"
    protocol        = "tcp"
    from_port       = 11300
    to_port         = 11300
    security_groups = [aws_security_group.app.id]
  }

  ingress {
    description     = "RabbitMQ (AMQP) from the app host"
    protocol        = "tcp"
    from_port       = 5672
    to_port         = 5672
    security_groups = [aws_security_group.app.id]
  }

  ingress {
    description     = "NATS from the app host"
    protocol        = "tcp"
    from_port       = 4222
    to_port         = 4222
    security_groups = [aws_security_group.app.id]
  }

  # The Redis Cluster's masters on the db host (no hosts of its own). Their bus ports stay closed:
  # the three masters reach each other on this host.
  dynamic "ingress" {
    for_each = var.redis_cluster_count == 0 ? ["masters"] : []
    content {
      description     = "Redis Cluster masters 7001-7003 on the db host from the app hosts"
      protocol        = "tcp"
      from_port       = 7001
      to_port         = 7003
      security_groups = [aws_security_group.app.id]
    }
  }

  egress {
    description = "Everything out: Debian packages, git"
    protocol    = "-1"
    from_port   = 0
    to_port     = 0
    cidr_blocks = ["0.0.0.0/0"]
  }

  tags = { Name = "${var.name}-db" }
}

# The Redis Cluster's own hosts (redis_cluster_count >= 3): clients on 7001 from the app hosts and
# the other masters (a client is redirected to whichever master holds a key's slot), the cluster bus
# 17001 from the other masters only.
resource "aws_security_group" "redis_cluster" {
  count       = var.redis_cluster_count > 0 ? 1 : 0
  name        = "${var.name}-redis-cluster"
  description = "IntegrationService Redis Cluster hosts: 7001 from the app group and the masters, bus 17001 from the masters only"
  vpc_id      = local.vpc_id

  ingress {
    description = "SSH from the administrator"
    protocol    = "tcp"
    from_port   = 22
    to_port     = 22
    cidr_blocks = [var.admin_cidr]
  }

  ingress {
    description     = "Redis Cluster clients from the app hosts"
    protocol        = "tcp"
    from_port       = 7001
    to_port         = 7001
    security_groups = [aws_security_group.app.id]
  }

  ingress {
    description = "Redis Cluster port between the masters (redis-cli --cluster create, MEET)"
    protocol    = "tcp"
    from_port   = 7001
    to_port     = 7001
    self        = true
  }

  ingress {
    description = "Redis Cluster bus (port + 10000) between the masters only"
    protocol    = "tcp"
    from_port   = 17001
    to_port     = 17001
    self        = true
  }

  egress {
    description = "Everything out: Debian packages, git"
    protocol    = "-1"
    from_port   = 0
    to_port     = 0
    cidr_blocks = ["0.0.0.0/0"]
  }

  tags = { Name = "${var.name}-redis-cluster" }
}

# ---- hosts ----------------------------------------------------------------------------------

# One password for the service's logins to PostgreSQL (scram-sha-256), Tarantool and every
# Redis instance (requirepass); Beanstalkd has no authentication, only the security group. Generated, kept in the Terraform state, handed to the hosts
# through user_data; never written in these files. Alphanumeric: it goes into connection strings.
resource "random_password" "db" {
  length  = 32
  special = false
}

resource "aws_instance" "db" {
  ami                    = data.aws_ami.debian12.id
  instance_type          = var.db_instance_type
  subnet_id              = local.subnet_id
  vpc_security_group_ids = [aws_security_group.db.id]
  key_name               = var.key_name

  user_data = templatefile("${path.module}/templates/db.yaml.tftpl", {
    repo_url              = var.repo_url
    repo_ref              = var.repo_ref
    db_password           = random_password.db.result
    allowed_cidr          = local.subnet_cidr
    command               = "up"
    redis_cluster_ports   = var.redis_cluster_count == 0 ? join(" ", local.redis_cluster_db_ports) : ""
    redis_cluster_masters = "" # its own three masters, when it runs them
  })
  user_data_replace_on_change = true

  root_block_device {
    volume_type           = "gp3"
    volume_size           = var.db_root_volume_gb
    encrypted             = true
    delete_on_termination = true
  }

  metadata_options {
    http_tokens = "required"
  }

  tags = { Name = "${var.name}-db" }
}

resource "aws_instance" "app" {
  ami                    = data.aws_ami.debian12.id
  instance_type          = var.app_instance_type
  subnet_id              = local.subnet_id
  vpc_security_group_ids = [aws_security_group.app.id]
  key_name               = var.key_name
  # Node 0 of the sharded cluster has a fixed address; a single node gets whatever AWS assigns.
  private_ip = var.shard_count > 1 ? local.node_ips[0] : null

  user_data = templatefile("${path.module}/templates/app.yaml.tftpl", {
    repo_url        = var.repo_url
    repo_ref        = var.repo_ref
    db_host         = aws_instance.db.private_ip
    db_password     = random_password.db.result
    service_image   = var.service_image
    storage_default = var.storage_default
    kv_default      = var.kv_default
    cluster_nodes   = join(",", local.node_urls)
    cluster_self    = local.sharded ? local.node_urls[0] : ""
    redis_cluster   = local.redis_cluster_endpoints
    install_tank    = "yes"
  })
  user_data_replace_on_change = true

  root_block_device {
    volume_type           = "gp3"
    volume_size           = var.app_root_volume_gb
    encrypted             = true
    delete_on_termination = true
  }

  metadata_options {
    http_tokens = "required"
  }

  tags = { Name = "${var.name}-app" }
}

# ---- the sharded key-value cluster (shard_count >= 2) ------------------------------------------

# Node i+1's own store: a db host like the first one, without Redis Cluster masters. Only node i+1 is
# configured with it; the db group admits the whole app group, which every node is in.
resource "aws_instance" "kv_db" {
  count                  = var.shard_count - 1
  ami                    = data.aws_ami.debian12.id
  instance_type          = var.db_instance_type
  subnet_id              = local.subnet_id
  vpc_security_group_ids = [aws_security_group.db.id]
  key_name               = var.key_name

  user_data = templatefile("${path.module}/templates/db.yaml.tftpl", {
    repo_url              = var.repo_url
    repo_ref              = var.repo_ref
    db_password           = random_password.db.result
    allowed_cidr          = local.subnet_cidr
    command               = "up"
    redis_cluster_ports   = ""
    redis_cluster_masters = ""
  })
  user_data_replace_on_change = true

  root_block_device {
    volume_type           = "gp3"
    volume_size           = var.db_root_volume_gb
    encrypted             = true
    delete_on_termination = true
  }

  metadata_options {
    http_tokens = "required"
  }

  tags = { Name = "${var.name}-db${count.index + 1}" }
}

# Node i+1: the service in Docker (no tank), told every node's URL and its own, its store on kv_db[i].
resource "aws_instance" "kv_node" {
  count                  = var.shard_count - 1
  ami                    = data.aws_ami.debian12.id
  instance_type          = var.app_instance_type
  subnet_id              = local.subnet_id
  vpc_security_group_ids = [aws_security_group.app.id]
  key_name               = var.key_name
  private_ip             = local.node_ips[count.index + 1]

  user_data = templatefile("${path.module}/templates/app.yaml.tftpl", {
    repo_url        = var.repo_url
    repo_ref        = var.repo_ref
    db_host         = aws_instance.kv_db[count.index].private_ip
    db_password     = random_password.db.result
    service_image   = var.service_image
    storage_default = var.storage_default
    kv_default      = var.kv_default
    cluster_nodes   = join(",", local.node_urls)
    cluster_self    = local.node_urls[count.index + 1]
    redis_cluster   = local.redis_cluster_endpoints
    install_tank    = "no"
  })
  user_data_replace_on_change = true

  root_block_device {
    volume_type           = "gp3"
    volume_size           = var.app_root_volume_gb
    encrypted             = true
    delete_on_termination = true
  }

  metadata_options {
    http_tokens = "required"
  }

  lifecycle {
    precondition {
      condition     = var.kv_default != "redis-cluster"
      error_message = "With shard_count >= 2 every node has a store of its own; kv_default = redis-cluster would make all nodes share one Redis Cluster. Use postgres, tarantool-memtx, tarantool-vinyl or redis-persistent."
    }
  }

  tags = { Name = "${var.name}-node${count.index + 1}" }
}

# ---- the Redis Cluster on hosts of its own (redis_cluster_count >= 3) ---------------------------

# One master per host on 7001; master 0 waits until every master answers and creates the cluster.
resource "aws_instance" "redis_cluster" {
  count                  = var.redis_cluster_count
  ami                    = data.aws_ami.debian12.id
  instance_type          = var.redis_cluster_instance_type
  subnet_id              = local.subnet_id
  vpc_security_group_ids = [aws_security_group.redis_cluster[0].id]
  key_name               = var.key_name
  private_ip             = local.redis_ips[count.index]

  user_data = templatefile("${path.module}/templates/db.yaml.tftpl", {
    repo_url              = var.repo_url
    repo_ref              = var.repo_ref
    db_password           = random_password.db.result
    allowed_cidr          = local.subnet_cidr
    command               = "redis-cluster"
    redis_cluster_ports   = tostring(local.redis_cluster_port)
    redis_cluster_masters = count.index == 0 ? join(" ", local.redis_host_masters) : ""
  })
  user_data_replace_on_change = true

  root_block_device {
    volume_type           = "gp3"
    volume_size           = var.redis_cluster_root_volume_gb
    encrypted             = true
    delete_on_termination = true
  }

  metadata_options {
    http_tokens = "required"
  }

  tags = { Name = "${var.name}-redis-cluster${count.index}" }
}
