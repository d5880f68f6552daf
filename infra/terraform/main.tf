# Two hosts in one subnet of one availability zone, as in the original study:
#   db  - PostgreSQL, Tarantool, four Redis instances, Beanstalkd         (infra/provision/db.sh)
#   app - the service in Docker and Yandex.Tank                           (infra/provision/app.sh)
# Both are provisioned by cloud-init from a clone of this repository, with the same
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
  }
  service_port = 8080
  ssh_user     = "admin" # Debian's cloud images log in as admin

  vpc_id      = var.use_default_vpc ? data.aws_vpc.default[0].id : aws_vpc.bench[0].id
  subnet_id   = var.use_default_vpc ? data.aws_subnet.default[0].id : aws_subnet.bench[0].id
  subnet_cidr = var.use_default_vpc ? data.aws_subnet.default[0].cidr_block : aws_subnet.bench[0].cidr_block
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

  egress {
    description = "Everything out: Debian packages, git"
    protocol    = "-1"
    from_port   = 0
    to_port     = 0
    cidr_blocks = ["0.0.0.0/0"]
  }

  tags = { Name = "${var.name}-db" }
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
    repo_url     = var.repo_url
    repo_ref     = var.repo_ref
    db_password  = random_password.db.result
    allowed_cidr = local.subnet_cidr
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

  user_data = templatefile("${path.module}/templates/app.yaml.tftpl", {
    repo_url        = var.repo_url
    repo_ref        = var.repo_ref
    db_host         = aws_instance.db.private_ip
    db_password     = random_password.db.result
    service_image   = var.service_image
    storage_default = var.storage_default
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
